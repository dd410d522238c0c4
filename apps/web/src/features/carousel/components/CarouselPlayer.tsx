import { useEffect, type ReactNode } from 'react';
import { CaretRightOutlined, CloseOutlined, LeftOutlined, PauseOutlined, PlayCircleOutlined, RightOutlined, StopOutlined } from '@ant-design/icons';
import { Button, ConfigProvider, Empty, Space, Spin, Tag, Tooltip, theme } from 'antd';
import { useCarouselTranslation as useTranslation } from '../texts.ts';
import type { CarouselDetail, CarouselKind } from '@ship-cctv/protocol';
import { ApiError } from '../../../lib/api-client.ts';
import { useCarouselDetail, useCarouselKind } from '../api/detail.ts';
import { useTaskControl } from '../api/task-control.ts';
import { type CarouselView, useSimpleCarousel } from '../hooks/useSimpleCarousel.ts';
import { useTaskCarousel } from '../hooks/useTaskCarousel.ts';
import { CarouselGrid } from './CarouselGrid.tsx';
import { Countdown } from './Countdown.tsx';
import styles from '../carousel.module.css';
import { useMessage } from '../../../shared/message.tsx';

const PLAYER_THEME = { algorithm: theme.darkAlgorithm };
const STATE_COLOUR = { stopped: 'default', running: 'green', waiting: 'gold' } as const;

export interface CarouselPlayerProps {
  id: string;
  /** Unknown (a link with the id alone): found out from the details. */
  kind: CarouselKind | undefined;
  onExit(): void;
}

/**
 * The carousel on the whole window: a grid of `layout` cells, the page k / n, a countdown to the
 * next page, and its controls. A simple carousel runs here (pause, next, previous act locally); a
 * task follows shore (those are shore's, and Stop stops the task). Escape exits.
 */
export function CarouselPlayer({ id, kind: known, onExit }: CarouselPlayerProps) {
  const { t } = useTranslation();
  const found = useCarouselKind(id, known);
  const kind = known ?? found.data;
  // A simple carousel's detail is asked again each minute: ships online or not, channels that came or went.
  const detail = useCarouselDetail(kind, id, kind === 'simple' ? 60_000 : undefined);
  const error = found.error ?? detail.error;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !document.fullscreenElement) onExit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onExit]);

  let body: ReactNode;
  if (error) {
    const notFound = error instanceof ApiError && error.status === 404;
    body = (
      <PlayerMessage onExit={onExit}>
        <Empty description={notFound ? t('carousel.player.notFound') : t('carousel.player.loadFailed', { message: error.message })} />
      </PlayerMessage>
    );
  } else if (!detail.data) {
    body = (
      <PlayerMessage onExit={onExit}>
        <Spin />
      </PlayerMessage>
    );
  } else if (kind === 'simple') {
    body = <SimplePlayer detail={detail.data} onExit={onExit} />;
  } else {
    body = <TaskPlayer detail={detail.data} onExit={onExit} />;
  }

  return (
    <ConfigProvider theme={PLAYER_THEME}>
      <section className={styles.player} aria-label={t('carousel.player.label')} data-testid="carousel-player" data-carousel-id={id} data-kind={kind}>
        {body}
      </section>
    </ConfigProvider>
  );
}

function PlayerMessage({ children, onExit }: { children: ReactNode; onExit(): void }) {
  const { t } = useTranslation();
  return (
    <>
      <div className={styles.playerBar}>
        <span style={{ flex: 1 }} />
        <Button icon={<CloseOutlined />} onClick={onExit}>
          {t('carousel.player.exit')}
        </Button>
      </div>
      <div className={styles.message}>{children}</div>
    </>
  );
}

/** The bar's part every player has: name, page k / n, countdown. */
function PageInfo({ name, view, paused }: { name: string; view: CarouselView; paused?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <span className={styles.playerName} title={name} data-testid="carousel-name">
        {name}
      </span>
      {view.pageCount > 0 ? (
        <Tag data-testid="carousel-page" data-page={view.page + 1} data-page-count={view.pageCount}>
          {t('carousel.player.page', { page: view.page + 1, count: view.pageCount })}
        </Tag>
      ) : null}
      {paused ? <Tag color="gold">{t('carousel.player.paused')}</Tag> : null}
      {view.switchAt !== null && view.pageCount > 1 ? <Countdown at={view.switchAt} offsetMs={view.offsetMs} render={(time) => t('carousel.player.countdown', { time })} /> : null}
    </>
  );
}

function SimplePlayer({ detail, onExit }: { detail: CarouselDetail; onExit(): void }) {
  const { t } = useTranslation();
  const { view, paused, next, previous, pause, resume } = useSimpleCarousel(detail);
  const { carousel } = detail;
  const several = view.pageCount > 1;
  return (
    <>
      <div className={styles.playerBar} data-page={view.page + 1}>
        <PageInfo name={carousel.name} view={view} paused={paused} />
        <span style={{ flex: 1 }} />
        <Space size={4}>
          <Tooltip title={t('carousel.player.previous')}>
            <Button icon={<LeftOutlined />} aria-label={t('carousel.player.previous')} disabled={!several} onClick={previous} />
          </Tooltip>
          {paused ? (
            <Tooltip title={t('carousel.player.resume')}>
              <Button icon={<CaretRightOutlined />} aria-label={t('carousel.player.resume')} disabled={!several} onClick={resume} />
            </Tooltip>
          ) : (
            <Tooltip title={t('carousel.player.pause')}>
              <Button icon={<PauseOutlined />} aria-label={t('carousel.player.pause')} disabled={!several} onClick={pause} />
            </Tooltip>
          )}
          <Tooltip title={t('carousel.player.next')}>
            <Button icon={<RightOutlined />} aria-label={t('carousel.player.next')} disabled={!several} onClick={next} />
          </Tooltip>
        </Space>
        <Button icon={<CloseOutlined />} onClick={onExit}>
          {t('carousel.player.exit')}
        </Button>
      </div>
      {view.cells.length === 0 ? (
        <div className={styles.message}>
          <Empty description={t('carousel.player.empty')} />
        </div>
      ) : (
        <CarouselGrid carouselId={carousel.id} layout={carousel.layout} templateId={carousel.templateId ?? undefined} cells={view.cells} next={view.next} />
      )}
    </>
  );
}

function TaskPlayer({ detail, onExit }: { detail: CarouselDetail; onExit(): void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { carousel } = detail;
  const { view, status, error } = useTaskCarousel(carousel.id);
  const control = useTaskControl();
  const state = status?.state;
  const act = (action: 'start' | 'stop') =>
    control.mutate(
      { action, id: carousel.id },
      {
        onSuccess: () => message.success(t(action === 'start' ? 'carousel.list.started' : 'carousel.list.stopped')),
        onError: (err) => message.error(t('carousel.list.failed', { message: err.message })),
      },
    );
  // Pause, next and previous are shore's for a task: shown, disabled, with the reason.
  const shorePaced = (label: string, icon: ReactNode) => (
    <Tooltip title={t('carousel.player.shorePaced')}>
      <span>
        <Button icon={icon} aria-label={label} disabled />
      </span>
    </Tooltip>
  );
  return (
    <>
      <div className={styles.playerBar} data-task-state={state}>
        <PageInfo name={carousel.name} view={state === 'running' ? view : { ...view, pageCount: 0, switchAt: null }} />
        {state ? (
          <Tag color={STATE_COLOUR[state]} data-testid="carousel-task-state" data-task-state={state}>
            {t(`carousel.state.${state}`)}
          </Tag>
        ) : null}
        {state === 'waiting' && view.switchAt !== null ? <Countdown at={view.switchAt} offsetMs={view.offsetMs} render={(time) => t('carousel.player.opensIn', { time })} /> : null}
        <span style={{ flex: 1 }} />
        <Space size={4}>
          {shorePaced(t('carousel.player.previous'), <LeftOutlined />)}
          {shorePaced(t('carousel.player.pause'), <PauseOutlined />)}
          {shorePaced(t('carousel.player.next'), <RightOutlined />)}
        </Space>
        {state === 'stopped' ? (
          <Button icon={<PlayCircleOutlined />} loading={control.isPending} onClick={() => act('start')}>
            {t('carousel.player.start')}
          </Button>
        ) : (
          <Button danger icon={<StopOutlined />} loading={control.isPending} disabled={!state} onClick={() => act('stop')}>
            {t('carousel.player.stop')}
          </Button>
        )}
        <Button icon={<CloseOutlined />} onClick={onExit}>
          {t('carousel.player.exit')}
        </Button>
      </div>
      {!status ? (
        <div className={styles.message}>{error ? <Empty description={t('carousel.player.loadFailed', { message: error.message })} /> : <Spin />}</div>
      ) : state === 'stopped' ? (
        <div className={styles.message}>
          <Empty description={t('carousel.player.stopped')} />
        </div>
      ) : state === 'waiting' ? (
        <div className={styles.message}>
          <Empty description={t('carousel.player.waiting')} />
        </div>
      ) : view.cells.length === 0 ? (
        <div className={styles.message}>
          <Empty description={t('carousel.player.empty')} />
        </div>
      ) : (
        <CarouselGrid carouselId={carousel.id} layout={status.layout} templateId={carousel.templateId ?? undefined} cells={view.cells} next={view.next} />
      )}
    </>
  );
}

import { useEffect, useState } from 'react';
import { CameraOutlined, CloudDownloadOutlined, ScheduleOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Empty, Flex, Image, Modal, Progress, Spin, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ShipPicture } from '@ship-cctv/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { SidebarPage } from '../../../shared/layout/SidebarPage.tsx';
import { shipFailureText } from '../../../shared/ship-failure/index.ts';
import { formatBytes } from '../../../lib/format-bytes.ts';
import type { PlayableSource } from '../../../shared/playable-source.ts';
import { pictureUrl, useFetchShipPicture, useShipPictures, useTakeSnapshot } from '../api/pictures.ts';
import { transferView, usePictureEvents } from '../hooks/usePictureEvents.ts';
import { shipPictureFetchFailure, snapshotFailure, snapshotRequestFailure } from '../snapshot-reason.ts';
import { CameraSourceTree } from './CameraSourceTree.tsx';
import { TaskDrawer } from './TaskDrawer.tsx';
import styles from './pictures.module.css';
import { useMessage } from '../../../shared/message.tsx';

const DAY = 86_400_000;

/**
 * /recordlivephoto (ship-end photo playback): pick a camera in the tree and a time range; the
 * pictures the ship keeps come as a grid of its tiny thumbnails (what that cost over the link is
 * shown). A click opens the picture: from shore if it is there, else fetched from the ship with a
 * progress bar and its byte count. "Snapshot now" takes a new one.
 */
export function ShipPhotoPage() {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [camera, setCamera] = useState<{ key: string; source: PlayableSource }>();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(1, 'day'), dayjs()]);
  const [asked, setAsked] = useState<{ shipId: string; body: { cameraId: string; from: number; to: number } }>();
  const [open, setOpen] = useState<ShipPicture>();
  const [tasksOpen, setTasksOpen] = useState(false);
  const list = useShipPictures(asked);
  const snapshot = useTakeSnapshot();
  const events = usePictureEvents(camera?.source.shipName);
  const size = (n: number) => formatBytes(n, i18n.language);

  const ask = (source: PlayableSource | undefined, [from, to]: [Dayjs, Dayjs]) => {
    if (!source) return;
    const next = { shipId: source.shipId, body: { cameraId: source.cameraId, from: from.valueOf(), to: to.valueOf() } };
    setAsked(next);
    void queryClient.invalidateQueries({ queryKey: ['pictures', 'ship', next] });
  };

  // A snapshot taken here joins the list once the ship has it.
  const [taking, setTaking] = useState<string>();
  const takingView = transferView(taking ? events.get(taking) : undefined);
  useEffect(() => {
    if (!taking || takingView.kind === 'none') return;
    if (takingView.kind === 'failed') {
      message.error(snapshotFailure(t, takingView.code, takingView.message));
      setTaking(undefined);
    } else if (takingView.kind === 'progress' || takingView.kind === 'stored') {
      setTaking(undefined);
      ask(camera?.source, [range[0], dayjs().add(1, 'minute')]);
    }
  }, [taking, takingView.kind]);

  const takeNow = () => {
    const source = camera?.source;
    if (!source) return;
    snapshot.mutate(
      { shipId: source.shipId, channelId: source.channelId, cameraId: source.cameraId },
      {
        onSuccess: (answer) => setTaking(answer.pictureId),
        onError: (err) => message.error(snapshotRequestFailure(t, err)),
      },
    );
  };

  const data = list.data;
  return (
    <SidebarPage
      sidebar={
        <CameraSourceTree
          selectedKey={camera?.key}
          onSelect={(source, key) => {
            setCamera({ key, source });
            ask(source, range);
          }}
        />
      }
    >
      <Flex vertical gap={12} style={{ height: '100%', minHeight: 0 }} data-testid="ship-photo-page">
        <Flex align="center" gap={8} wrap>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {camera ? `${camera.source.title} · ${camera.source.shipDisplayName}` : t('pictures.ship.title')}
          </Typography.Title>
          <span style={{ flex: 1 }} />
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={range}
            allowClear={false}
            aria-label={t('pictures.ship.range')}
            disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
            onChange={(v) => {
              if (v?.[0] && v[1]) setRange([v[0], v[1]]);
            }}
          />
          <Button icon={<SearchOutlined />} disabled={!camera || range[1].valueOf() - range[0].valueOf() > 31 * DAY} onClick={() => ask(camera?.source, range)}>
            {t('pictures.ship.query')}
          </Button>
          <Button type="primary" icon={<CameraOutlined />} disabled={!camera} loading={snapshot.isPending || taking !== undefined} onClick={takeNow}>
            {t('pictures.ship.snapshotNow')}
          </Button>
          <Button icon={<ScheduleOutlined />} disabled={!camera} onClick={() => setTasksOpen(true)}>
            {t('pictures.tasks.open')}
          </Button>
        </Flex>
        {!camera ? (
          <Empty description={t('pictures.ship.chooseCamera')} style={{ marginTop: 64 }} />
        ) : list.isFetching && !data ? (
          <Flex justify="center" style={{ marginTop: 64 }}>
            <Spin />
          </Flex>
        ) : list.error ? (
          <Alert type="error" showIcon message={t('pictures.loadFailed', { message: shipFailureText(t, list.error) })} />
        ) : data ? (
          <>
            <Flex gap={8} wrap align="center">
              {data.cached ? <Alert type="warning" showIcon message={t('pictures.ship.cached')} /> : null}
              {!data.cached ? <Typography.Text type="secondary" data-testid="list-cost">{t('pictures.ship.listCost', { size: size(data.linkBytes) })}</Typography.Text> : null}
              {data.truncated ? <Typography.Text type="secondary">{t('pictures.ship.truncated', { count: data.pictures.length })}</Typography.Text> : null}
              {list.isFetching ? <Spin size="small" /> : null}
            </Flex>
            {data.pictures.length === 0 ? (
              <Empty description={t('pictures.ship.empty')} />
            ) : (
              <div className={styles.grid} role="list" aria-label={t('pictures.ship.title')}>
                {data.pictures.map((p) => (
                  <button key={p.pictureId} type="button" role="listitem" className={styles.card} onClick={() => setOpen(p)} data-picture-id={p.pictureId}>
                    {p.hasThumb ? <img src={pictureUrl(p.pictureId, { thumb: true })} alt={dayjs(p.time).format('YYYY-MM-DD HH:mm:ss')} className={styles.thumb} /> : <div className={styles.thumb} />}
                    <span className={styles.caption}>
                      <span>{dayjs(p.time).format('YYYY-MM-DD HH:mm:ss')}</span>
                      <span>{size(p.bytes)}</span>
                    </span>
                    <span className={styles.caption}>
                      <span>{t(`pictures.ship.origin.${p.origin}`)}</span>
                      <Tag color={p.onShore ? 'green' : 'default'} style={{ marginInlineEnd: 0 }}>
                        {p.onShore ? t('pictures.ship.onShore') : t('pictures.ship.onShip')}
                      </Tag>
                    </span>
                  </button>
                ))}
              </div>
            )}
          </>
        ) : null}
      </Flex>
      <TaskDrawer ship={camera ? { shipId: camera.source.shipId, shipDisplayName: camera.source.shipDisplayName, channel: { id: camera.source.channelId, name: camera.source.title } } : undefined} open={tasksOpen} onClose={() => setTasksOpen(false)} />
      {open && camera ? (
        <ShipPictureDialog
          picture={open}
          shipId={camera.source.shipId}
          events={events}
          onClose={() => {
            setOpen(undefined);
            void queryClient.invalidateQueries({ queryKey: ['pictures', 'ship', asked] });
          }}
        />
      ) : null}
    </SidebarPage>
  );
}

/** One ship picture: shown from shore, or fetched from the ship with its progress and cost. */
function ShipPictureDialog({ picture, shipId, events, onClose }: { picture: ShipPicture; shipId: string; events: ReturnType<typeof usePictureEvents>; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const fetch = useFetchShipPicture();
  const view = transferView(events.get(picture.pictureId));
  const onShore = picture.onShore || fetch.data?.state === 'onShore' || view.kind === 'stored';
  const size = (n: number) => formatBytes(n, i18n.language);

  useEffect(() => {
    if (!picture.onShore) fetch.mutate({ shipId, pictureId: picture.pictureId });
  }, [picture.pictureId]);

  const total = view.kind === 'progress' || view.kind === 'waiting' ? view.total : picture.bytes;
  const bytes = view.kind === 'progress' || view.kind === 'waiting' ? view.bytes : 0;
  return (
    <Modal open width={900} title={dayjs(picture.time).format('YYYY-MM-DD HH:mm:ss')} footer={null} onCancel={onClose} destroyOnHidden>
      {onShore ? (
        <Flex vertical gap={8} align="center">
          <Image src={pictureUrl(picture.pictureId)} alt={dayjs(picture.time).format('YYYY-MM-DD HH:mm:ss')} style={{ maxWidth: '100%' }} data-testid="ship-picture-full" />
          <Flex gap={16}>
            <Typography.Text type="secondary">{t('pictures.shore.size', { width: picture.width, height: picture.height, size: size(picture.bytes) })}</Typography.Text>
            {!picture.onShore ? <Typography.Text type="secondary">{t('pictures.ship.cost', { size: size(picture.bytes) })}</Typography.Text> : null}
            <a href={pictureUrl(picture.pictureId, { download: true })}>
              <CloudDownloadOutlined /> {t('pictures.shore.download')}
            </a>
          </Flex>
        </Flex>
      ) : (
        <Flex vertical gap={12} align="center" style={{ padding: 24 }}>
          <img src={pictureUrl(picture.pictureId, { thumb: true })} alt="" style={{ width: 320, filter: 'blur(1px)' }} />
          {fetch.error ? (
            <Alert type="error" showIcon message={shipPictureFetchFailure(t, fetch.error)} />
          ) : view.kind === 'failed' ? (
            <Alert type="error" showIcon message={t('pictures.snapshot.transferFailed')} description={view.message} />
          ) : (
            <>
              <Typography.Text>{view.kind === 'waiting' ? t('pictures.snapshot.waiting') : view.kind === 'progress' ? t('pictures.ship.fetching') : t('pictures.ship.queued')}</Typography.Text>
              <Progress percent={total > 0 ? Math.floor((100 * bytes) / total) : 0} status={view.kind === 'waiting' ? 'normal' : 'active'} style={{ width: 360 }} aria-label={t('pictures.ship.fetching')} />
              <Typography.Text type="secondary">
                {size(bytes)} / {size(total)} · {t('pictures.ship.cost', { size: size(total) })}
              </Typography.Text>
            </>
          )}
        </Flex>
      )}
    </Modal>
  );
}

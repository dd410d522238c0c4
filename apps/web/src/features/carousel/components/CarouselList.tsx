import type { HTMLAttributes } from 'react';
import { DeleteOutlined, EditOutlined, PlusOutlined, PoweroffOutlined, StopOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Alert, Button, Popconfirm, Space, Table, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { useCarouselTranslation as useTranslation } from '../texts.ts';
import type { Carousel, CarouselKind, CarouselTaskState } from '@ship-cctv/protocol';
import { useCarousels } from '../api/list.ts';
import { useDeleteCarousel } from '../api/delete.ts';
import { useTaskStatus } from '../api/status.ts';
import { useStopAllTasks, useTaskControl } from '../api/task-control.ts';
import { dwellOf } from '../editor.ts';
import { useMessage } from '../../../shared/message.tsx';

const STATE_COLOUR: Record<CarouselTaskState, string> = { stopped: 'default', running: 'green', waiting: 'gold' };

/** A task's state: from its live status while started (running or waiting), else from the list. */
function useTaskState(carousel: Carousel): CarouselTaskState {
  const { latest } = useTaskStatus(carousel.id, carousel.running);
  if (!carousel.running) return 'stopped';
  return latest?.status.state ?? 'running';
}

function TaskStateTag({ carousel }: { carousel: Carousel }) {
  const { t } = useTranslation();
  const state = useTaskState(carousel);
  return (
    <Tag color={STATE_COLOUR[state]} data-task-state={state}>
      {t(`carousel.state.${state}`)}
    </Tag>
  );
}

function StartStopButton({ carousel }: { carousel: Carousel }) {
  const { t } = useTranslation();
  const message = useMessage();
  const state = useTaskState(carousel);
  const control = useTaskControl();
  const action = state === 'stopped' ? 'start' : 'stop';
  return (
    <Button
      size="small"
      type={action === 'start' ? 'primary' : 'default'}
      danger={action === 'stop'}
      icon={action === 'start' ? <PoweroffOutlined /> : <StopOutlined />}
      loading={control.isPending}
      onClick={() =>
        control.mutate(
          { action, id: carousel.id },
          {
            onSuccess: () => message.success(t(action === 'start' ? 'carousel.list.started' : 'carousel.list.stopped')),
            onError: (err) => message.error(t('carousel.list.failed', { message: err.message })),
          },
        )
      }
    >
      {t(action === 'start' ? 'carousel.list.start' : 'carousel.list.stop')}
    </Button>
  );
}

export interface CarouselListProps {
  orgId: string;
  kind: CarouselKind;
  onKindChange(kind: CarouselKind): void;
  onPlay(carousel: Carousel): void;
  onEdit(carousel: Carousel): void;
  onCreate(kind: CarouselKind): void;
}

/**
 * The organisation's carousels, simple ones and tasks on two tabs: each with play, edit and delete
 * (confirmed); tasks with their state (stopped, running, waiting), start / stop, and "stop all".
 */
export function CarouselList({ orgId, kind, onKindChange, onPlay, onEdit, onCreate }: CarouselListProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const remove = useDeleteCarousel();
  const stopAll = useStopAllTasks();
  const failed = (err: Error) => message.error(t('carousel.list.failed', { message: err.message }));

  const columns = (of: CarouselKind): TableColumnsType<Carousel> => [
    {
      key: 'name',
      title: t('carousel.list.name'),
      dataIndex: 'name',
      ellipsis: true,
      render: (name: string, c) => (
        <Space size={4} direction="vertical">
          <Typography.Text strong>{name}</Typography.Text>
          {c.orgId !== orgId ? <Typography.Text type="secondary">{c.orgName}</Typography.Text> : null}
        </Space>
      ),
    },
    ...(of === 'task'
      ? [
          {
            key: 'mode',
            title: t('carousel.list.mode'),
            render: (_: unknown, c: Carousel) => t(`carousel.modes.${c.mode}`),
          },
        ]
      : []),
    {
      key: 'channels',
      title: t('carousel.list.channels'),
      render: (_, c) =>
        c.kind === 'task' && c.mode === 'ships'
          ? t('carousel.shipCount', { count: c.shipIds.length })
          : c.kind === 'task' && c.mode === 'organisation'
            ? t('carousel.allOfOrganisation')
            : t('carousel.channelCount', { count: c.channelIds.length }),
    },
    { key: 'layout', title: t('carousel.list.layout'), render: (_, c) => t('carousel.layoutOption', { count: c.layout }) },
    {
      key: 'time',
      title: t('carousel.list.time'),
      render: (_, c) => {
        const dwell = dwellOf(c);
        return t(dwell.unit === 'seconds' ? 'carousel.dwellSeconds' : 'carousel.dwellMinutes', { count: dwell.count });
      },
    },
    ...(of === 'task'
      ? [
          {
            key: 'schedule',
            title: t('carousel.list.schedule'),
            render: (_: unknown, c: Carousel) =>
              c.schedule
                ? t('carousel.schedule', {
                    days: c.schedule.days.map((d) => t(`carousel.weekdays.${String(d) as '1'}`)).join(' '),
                    start: c.schedule.start,
                    end: c.schedule.end,
                    timeZone: c.schedule.timeZone,
                  })
                : t('carousel.always'),
          },
          { key: 'state', title: t('carousel.list.state'), render: (_: unknown, c: Carousel) => <TaskStateTag carousel={c} /> },
        ]
      : []),
    {
      key: 'actions',
      title: t('carousel.list.actions'),
      width: of === 'task' ? 380 : 280,
      render: (_, c) => (
        <Space size={4} wrap>
          {c.kind === 'task' ? <StartStopButton carousel={c} /> : null}
          <Button size="small" icon={<VideoCameraOutlined />} onClick={() => onPlay(c)}>
            {t('carousel.list.play')}
          </Button>
          <Button size="small" icon={<EditOutlined />} onClick={() => onEdit(c)}>
            {t('carousel.list.edit')}
          </Button>
          <Popconfirm
            title={t(c.running ? 'carousel.list.deleteRunningConfirm' : 'carousel.list.deleteConfirm', { name: c.name })}
            onConfirm={() => remove.mutateAsync(c.id).then(() => void message.success(t('carousel.list.deleted')), failed)}
          >
            <Button size="small" danger icon={<DeleteOutlined />}>
              {t('carousel.list.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const table = (of: CarouselKind) => <KindTable kind={of} orgId={orgId} columns={columns(of)} />;

  return (
    <Tabs
      activeKey={kind}
      onChange={(key) => onKindChange(key === 'task' ? 'task' : 'simple')}
      items={[
        { key: 'simple', label: t('carousel.tabs.simple'), children: table('simple') },
        { key: 'task', label: t('carousel.tabs.task'), children: table('task') },
      ]}
      tabBarExtraContent={
        <Space>
          {kind === 'task' ? (
            <Popconfirm
              title={t('carousel.list.stopAllConfirm')}
              onConfirm={() => stopAll.mutateAsync(orgId).then(({ stopped }) => void message.success(t('carousel.list.stoppedAll', { count: stopped })), failed)}
            >
              <Button icon={<StopOutlined />} loading={stopAll.isPending}>
                {t('carousel.list.stopAll')}
              </Button>
            </Popconfirm>
          ) : null}
          <Button type="primary" icon={<PlusOutlined />} onClick={() => onCreate(kind)}>
            {t('carousel.list.create')}
          </Button>
        </Space>
      }
    />
  );
}

function KindTable({ kind, orgId, columns }: { kind: CarouselKind; orgId: string; columns: TableColumnsType<Carousel> }) {
  const { t } = useTranslation();
  const list = useCarousels(kind, orgId);
  if (list.error) return <Alert type="error" showIcon message={t('carousel.list.loadFailed', { message: list.error.message })} />;
  return (
    <Table<Carousel>
      rowKey="id"
      size="small"
      loading={list.isLoading}
      dataSource={list.data ?? []}
      columns={columns}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      locale={{ emptyText: t('carousel.list.empty') }}
      onRow={(c) => ({ 'data-carousel-id': c.id, 'data-kind': c.kind }) as HTMLAttributes<HTMLElement>}
      aria-label={t(kind === 'simple' ? 'carousel.tabs.simple' : 'carousel.tabs.task')}
    />
  );
}

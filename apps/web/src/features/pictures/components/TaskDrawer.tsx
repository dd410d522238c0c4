import { useState } from 'react';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Drawer, Empty, Flex, Form, InputNumber, List, Popconfirm, Progress, Select, Tag, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { SHOT_STATES, type SnapshotTaskStatus, type TaskShot } from '@ship-cctv/protocol';
import { useShipChannels } from '../../../shared/source-tree/index.ts';
import { useDeleteTask, useSubmitTask, useTaskDetail, useTasks } from '../api/pictures.ts';
import { usePictureListTranslation as useTranslation } from '../list-texts.ts';
import { rateUnit, shotBuckets, sizeUnit, type ShotBucket } from '../shot-buckets.ts';
import styles from './pictures.module.css';
import { useMessage } from '../../../shared/message.tsx';

const STATE_COLOUR: Record<SnapshotTaskStatus['state'], string> = { pending: 'gold', active: 'green', linkDown: 'orange', finished: 'default', deleted: 'default' };
const SHOT_COLOUR: Record<TaskShot['state'], string> = { planned: '#d9d9d9', onItsWay: '#faad14', onShore: '#52c41a', failed: '#ff4d4f' };

interface TaskForm {
  channelIds: string[];
  rateHours: number;
  window: [Dayjs, Dayjs];
}

/** The ship whose tasks are shown, and the channel a new task starts with (the one being looked at). */
export interface TaskShip {
  shipId: string;
  shipDisplayName: string;
  channel?: { id: string; name: string };
}

/**
 * The snapshot tasks of one ship: create one (channels of the ship, a rate in hours per picture, a
 * time window), follow each task's state and its shots on a timeline, delete with confirmation
 * (the ship stops; the pictures taken stay). Opened from both photo screens.
 */
export function TaskDrawer({ ship: source, open, onClose }: { ship: TaskShip | undefined; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const shipId = source?.shipId;
  const tasks = useTasks(open ? shipId : undefined);
  const submit = useSubmitTask();
  const remove = useDeleteTask();
  const { byShip } = useShipChannels();
  const channels = shipId ? byShip.get(shipId) : undefined;
  const channelOptions = channels?.status === 'ready' ? channels.channels.map((c) => ({ value: c.id, label: c.name })) : source?.channel ? [{ value: source.channel.id, label: source.channel.name }] : [];
  const [form] = Form.useForm<TaskForm>();
  const [expanded, setExpanded] = useState<string>();
  const rateText = (rateHours: number) => {
    const { unit, count } = rateUnit(rateHours);
    return t(`pictureLists.rate.${unit}`, { count });
  };

  const create = (values: TaskForm) => {
    if (!shipId) return;
    submit.mutate(
      { shipId, channelIds: values.channelIds, rateHours: values.rateHours, start: values.window[0].valueOf(), end: values.window[1].valueOf() },
      {
        onSuccess: (task) => {
          message.success(t('pictures.tasks.created'));
          setExpanded(task.id);
        },
        onError: (err) => message.error(t('pictures.tasks.errors.failed', { message: err.message })),
      },
    );
  };

  return (
    <Drawer open={open} onClose={onClose} width={680} title={source ? t('pictures.tasks.title', { ship: source.shipDisplayName }) : t('pictures.tasks.open')} destroyOnHidden>
      {!source ? (
        <Empty description={t('pictures.tasks.chooseShip')} />
      ) : (
        <Flex vertical gap={16}>
          <Form<TaskForm>
            form={form}
            layout="vertical"
            requiredMark={false}
            initialValues={{ channelIds: source.channel ? [source.channel.id] : [], rateHours: 1, window: [dayjs().add(5, 'minute').startOf('minute'), dayjs().add(1, 'day').startOf('minute')] }}
            onFinish={create}
            aria-label={t('pictures.tasks.create')}
          >
            <Form.Item name="channelIds" label={t('pictures.tasks.channels')} rules={[{ required: true, type: 'array', min: 1, message: t('pictures.tasks.channelsPrompt') }]}>
              <Select mode="multiple" options={channelOptions} placeholder={t('pictures.tasks.channelsPrompt')} aria-label={t('pictures.tasks.channels')} />
            </Form.Item>
            <Flex gap={12}>
              <Form.Item name="rateHours" label={t('pictures.tasks.rate')} extra={t('pictures.tasks.rateHint')} rules={[{ required: true }]} style={{ width: 200 }}>
                <InputNumber min={1 / 60} max={720} step={0.25} style={{ width: '100%' }} aria-label={t('pictures.tasks.rate')} />
              </Form.Item>
              <Form.Item name="window" label={t('pictures.tasks.window')} rules={[{ required: true }]} style={{ flex: 1 }}>
                <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowClear={false} aria-label={t('pictures.tasks.window')} />
              </Form.Item>
            </Flex>
            <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={submit.isPending}>
              {t('pictures.tasks.submit')}
            </Button>
          </Form>
          {tasks.error ? <Alert type="error" showIcon message={t('pictures.loadFailed', { message: tasks.error.message })} /> : null}
          <List
            aria-label={t('pictures.tasks.open')}
            dataSource={tasks.data ?? []}
            loading={tasks.isLoading}
            locale={{ emptyText: t('pictures.tasks.empty') }}
            renderItem={(task) => (
              <List.Item
                key={task.id}
                data-task-id={task.id}
                data-task-state={task.state}
                actions={
                  task.state === 'deleted'
                    ? []
                    : [
                        <Popconfirm key="delete" title={t('pictures.tasks.deleteConfirm')} onConfirm={() => remove.mutate(task.id, { onSuccess: () => message.success(t('pictures.tasks.deleted')) })}>
                          <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('pictures.tasks.delete')}>
                            {t('pictures.tasks.delete')}
                          </Button>
                        </Popconfirm>,
                      ]
                }
              >
                <Flex vertical gap={4} style={{ width: '100%' }}>
                  <Flex gap={8} align="center" wrap>
                    <Tag color={STATE_COLOUR[task.state]} data-testid="task-state">
                      {t(`pictures.tasks.state.${task.state}`)}
                    </Tag>
                    <Typography.Text data-testid="task-rate">{rateText(task.rateHours)}</Typography.Text>
                    <Typography.Text type="secondary">
                      {dayjs(task.start).format('MM-DD HH:mm')} — {dayjs(task.end).format('MM-DD HH:mm')}
                    </Typography.Text>
                  </Flex>
                  <Progress
                    percent={task.counts.total > 0 ? Math.round((100 * task.counts.onShore) / task.counts.total) : 0}
                    success={{ percent: task.counts.total > 0 ? Math.round((100 * task.counts.onShore) / task.counts.total) : 0 }}
                    size="small"
                    format={() => t('pictures.tasks.progress', { onShore: task.counts.onShore, total: task.counts.total })}
                  />
                  <Flex gap={12}>
                    {task.counts.onItsWay > 0 ? <Typography.Text type="warning">{t('pictures.tasks.onItsWayCount', { count: task.counts.onItsWay })}</Typography.Text> : null}
                    {task.counts.failed > 0 ? <Typography.Text type="danger">{t('pictures.tasks.failedCount', { count: task.counts.failed })}</Typography.Text> : null}
                    <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setExpanded(expanded === task.id ? undefined : task.id)} aria-expanded={expanded === task.id}>
                      {t('pictures.tasks.shots')}
                    </Button>
                  </Flex>
                  {expanded === task.id ? <ShotTimeline taskId={task.id} /> : null}
                </Flex>
              </List.Item>
            )}
          />
        </Flex>
      )}
    </Drawer>
  );
}

/**
 * A task's shots on its window, gathered in bars of one stretch (minutes to days, at most 48 bars):
 * each bar is split by the states of its shots and says on hover or focus when it runs and how
 * many of its shots are on shore, on their way, failed or planned (with the failures' reasons).
 */
function ShotTimeline({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const detail = useTaskDetail(taskId);
  const data = detail.data;
  if (!data) return null;
  const { start, end } = data.task;
  const span = Math.max(1, end - start);
  const { size, buckets } = shotBuckets(data.shots, start, end);
  const day = size >= 24 * 3_600_000;
  const time = (at: number) => dayjs(at).format(day ? 'MM-DD' : 'MM-DD HH:mm');
  const reasons = (bucket: ShotBucket) => [...new Set(data.shots.filter((s) => s.reason && s.plannedAt >= bucket.from && s.plannedAt < bucket.to).map((s) => s.reason))].slice(0, 3);
  const describe = (bucket: ShotBucket) =>
    t('pictureLists.bucket', {
      from: time(bucket.from),
      to: time(bucket.to),
      counts: SHOT_STATES.filter((state) => bucket.counts[state] > 0)
        .map((state) => t('pictureLists.bucketCount', { state: t(`pictures.tasks.shot.${state}`), count: bucket.counts[state] }))
        .join(t('pictureLists.separator')),
    });
  const { unit, count } = sizeUnit(size);
  return (
    <div>
      <div className={styles.timeline} data-testid="task-timeline">
        {buckets.map((b) => {
          const failures = b.counts.failed > 0 ? reasons(b) : [];
          return (
            <Tooltip key={b.from} title={[describe(b), ...failures].join(' · ')}>
              <button
                type="button"
                className={styles.bucket}
                aria-label={describe(b)}
                data-shot-bucket=""
                style={{ insetInlineStart: `${((b.from - start) / span) * 100}%`, width: `${((b.to - b.from) / span) * 100}%` }}
              >
                {SHOT_STATES.filter((state) => b.counts[state] > 0).map((state) => (
                  <span key={state} data-shot-state={state} style={{ flexGrow: b.counts[state], background: SHOT_COLOUR[state] }} />
                ))}
              </button>
            </Tooltip>
          );
        })}
      </div>
      <Flex gap={12} style={{ fontSize: 12, marginTop: 4 }} wrap>
        {(['planned', 'onItsWay', 'onShore', 'failed'] as const).map((state) => (
          <span key={state}>
            <span className={styles.legend} style={{ background: SHOT_COLOUR[state] }} /> {t(`pictures.tasks.shot.${state}`)}
          </span>
        ))}
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="task-bucket-size">
          {t('pictureLists.bucketSize', { size: t(`pictureLists.size.${unit}`, { count }) })}
        </Typography.Text>
      </Flex>
    </div>
  );
}

import { CheckOutlined, DeleteOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { ApiError } from '../../../lib/api-client.ts';
import { useSessionUser } from '../../../lib/session-store.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useAcknowledgeEvent, useDeleteEvent, type EventInfo } from '../api/events.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';

export const formatEventTime = (epoch: number) => dayjs(epoch).format('YYYY-MM-DD HH:mm:ss');
export const errorText = (error: unknown) => (error instanceof ApiError || error instanceof Error ? error.message : String(error));

/** Whether an event is acknowledged, and by whom and when. */
export function AckState({ event }: { event: EventInfo }) {
  const { t } = useTranslation();
  if (event.acknowledgedAt === undefined) return <Tag color="orange" data-event-ack="false">{t('events.unacknowledged')}</Tag>;
  return (
    <Tag color="green" data-event-ack="true">
      {t('events.acknowledgedBy', { user: event.acknowledgedBy ?? '', time: formatEventTime(event.acknowledgedAt) })}
    </Tag>
  );
}

/** Play this moment, acknowledge and delete, for one event. */
export function EventActions({ event, onPlay, opening }: { event: EventInfo; onPlay(event: EventInfo): void; opening: boolean }) {
  const { t } = useTranslation();
  const message = useMessage();
  const acknowledge = useAcknowledgeEvent();
  const remove = useDeleteEvent();
  // Only managers delete events (shore refuses an operator).
  const canDelete = useSessionUser()?.role !== 'operator';
  return (
    <Space size={4} wrap>
      <Tooltip title={t('events.play')}>
        <Button size="small" icon={<PlayCircleOutlined />} loading={opening} onClick={() => onPlay(event)} data-event-action="play">
          {t('events.play')}
        </Button>
      </Tooltip>
      {event.acknowledgedAt === undefined ? (
        <Button
          size="small"
          icon={<CheckOutlined />}
          loading={acknowledge.isPending}
          data-event-action="acknowledge"
          onClick={() => acknowledge.mutate(event.id, { onError: (error) => void message.error(t('events.actionFailed', { message: errorText(error) })) })}
        >
          {t('events.acknowledge')}
        </Button>
      ) : null}
      {canDelete ? (
      <Popconfirm
        title={t('events.deleteConfirm')}
        okText={t('events.deleteOk')}
        cancelText={t('events.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() =>
          remove.mutateAsync(event.id).then(
            () => void message.success(t('events.deleted')),
            (error: unknown) => void message.error(t('events.actionFailed', { message: errorText(error) })),
          )
        }
      >
        <Button size="small" danger icon={<DeleteOutlined />} loading={remove.isPending} data-event-action="delete" aria-label={t('events.delete')} />
      </Popconfirm>
      ) : null}
    </Space>
  );
}

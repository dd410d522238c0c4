import { Card, Flex, Image, Popover, Typography, theme } from 'antd';
import { eventPictureUrl, type EventInfo } from '../api/events.ts';
import { classesByScore, percent, timelineRows, timelineSpan } from '../event-view.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';
import { AckState, EventActions, formatEventTime } from './EventActions.tsx';

/**
 * The page's events on a timeline: a row per ship and camera, each event a mark at its time
 * (orange unacknowledged, grey acknowledged); a mark opens its picture and actions.
 */
export function EventTimeline({ events, filter, onPlay, opening }: { events: EventInfo[]; filter: { from?: number; to?: number }; onPlay(event: EventInfo): void; opening: string | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const span = timelineSpan(events, filter);
  const rows = timelineRows(events, span);
  const classText = (event: EventInfo) => classesByScore(event).map((c) => t('events.classScore', { class: t(`events.class.${c.class}`), score: percent(c.score) })).join(' · ');
  return (
    <Card size="small" data-testid="event-timeline">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('events.timeline.hint', { from: formatEventTime(span.from), to: formatEventTime(span.to) })}
      </Typography.Paragraph>
      <Flex vertical gap={6}>
        {rows.map((row) => (
          <Flex key={row.key} align="center" gap={8} data-timeline-row={row.cameraId}>
            <Typography.Text ellipsis style={{ width: 220, flex: 'none' }} title={t('events.timeline.row', { ship: row.shipName, camera: row.cameraName })}>
              {t('events.timeline.row', { ship: row.shipName, camera: row.cameraName })}
            </Typography.Text>
            <div style={{ position: 'relative', flex: 1, height: 22, background: token.colorFillTertiary, borderRadius: 4 }}>
              {row.marks.map(({ event, left, width }) => {
                const label = t('events.timeline.event', { time: formatEventTime(event.start), classes: classText(event) });
                return (
                  <Popover
                    key={event.id}
                    trigger="click"
                    title={label}
                    content={
                      <Flex vertical gap={8} style={{ maxWidth: 340 }}>
                        <Image src={eventPictureUrl(event.id)} width={320} alt={label} preview={false} />
                        <AckState event={event} />
                        <EventActions event={event} onPlay={onPlay} opening={opening === event.id} />
                      </Flex>
                    }
                  >
                    <button
                      type="button"
                      aria-label={label}
                      title={label}
                      data-timeline-event={event.id}
                      style={{
                        position: 'absolute',
                        left: `${left * 100}%`,
                        width: `max(${width * 100}%, 6px)`,
                        top: 3,
                        bottom: 3,
                        padding: 0,
                        border: 'none',
                        borderRadius: 3,
                        cursor: 'pointer',
                        background: event.acknowledgedAt === undefined ? token.colorWarning : token.colorTextQuaternary,
                      }}
                    />
                  </Popover>
                );
              })}
            </div>
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}

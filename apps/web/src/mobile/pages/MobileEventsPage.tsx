import { useMemo, useState } from 'react';
import { Button, Checkbox, Dialog, DotLoading, List, NavBar, Selector, Tag, Toast } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { EVENT_CLASSES, type EventClass } from '@ship-cctv/protocol';
import { pickOrg, shipDisplayName, shipsOf, toPlayableSource, useOrganisations } from '../../shared/source-tree/index.ts';
import { DEFAULT_TIME_ZONE_ID } from '../../features/playback/index.ts';
import {
  acknowledgeable,
  classesByScore,
  eventPictureUrl,
  percent,
  playbackMoment,
  timelineRows,
  timelineSpan,
  useAcknowledgeEvent,
  useAcknowledgeEvents,
  useDeleteEvent,
  useEvents,
  useEventsTranslation,
  useFindEventCamera,
  type EventFilter,
  type EventInfo,
} from '../../features/events/index.ts';
import type { PlayNowState } from '../play-session.ts';
import { MOBILE_PLAYBACK } from '../routes.ts';
import { PickerSheet } from '../components/PickerSheet.tsx';
import styles from '../mobile.module.css';

const PAGE_SIZE = 10;
const ALL = '';

const time = (epoch: number) => {
  const d = new Date(epoch);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};
const fromInput = (value: string) => (value ? new Date(value).getTime() : undefined);

/**
 * The phone's events screen: the chosen organisation's events, filtered by ship, class, time and
 * whether acknowledged, as a list with pictures or a timeline per camera, in pages; each event
 * plays its moment (ship playback from its start − 5 s), and is acknowledged (one or the ones
 * ticked) or deleted.
 */
export function MobileEventsPage() {
  const { t } = useEventsTranslation();
  const navigate = useNavigate();
  const { orgs, selected: org } = useOrganisations();
  const ships = useMemo(() => (org ? shipsOf(org.node) : []), [org]);
  const [shipId, setShipId] = useState<string>(ALL);
  const [eventClass, setEventClass] = useState<EventClass | typeof ALL>(ALL);
  const [ack, setAck] = useState<'any' | 'no' | 'yes'>('any');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [view, setView] = useState<'list' | 'timeline'>('list');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [sheet, setSheet] = useState<'org' | 'ship' | null>(null);
  const find = useFindEventCamera();
  const acknowledgeMany = useAcknowledgeEvents();

  const filter = useMemo<EventFilter>(
    () => ({
      shipId: shipId || undefined,
      class: eventClass || undefined,
      acknowledged: ack === 'any' ? undefined : ack === 'yes',
      from: fromInput(from),
      to: fromInput(to),
    }),
    [shipId, eventClass, ack, from, to],
  );
  const list = useEvents(filter, page, PAGE_SIZE);
  const events = list.data?.events ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const refilter = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
    setPicked(new Set());
  };
  const ship = ships.find((s) => s.id === shipId);

  const play = async (event: EventInfo) => {
    const found = await find(event);
    if (!found) {
      Toast.show({ content: t('events.playFailed') });
      return;
    }
    const { start, end } = playbackMoment(event, Date.now());
    const state: PlayNowState = {
      playNow: {
        source: toPlayableSource(found.ship, found.channel, found.camera, found.waitTime),
        options: { timeZoneId: DEFAULT_TIME_ZONE_ID, start, end, speed: 1, template: undefined },
      },
    };
    void navigate(MOBILE_PLAYBACK, { state });
  };
  const toAcknowledge = acknowledgeable(events, picked);

  return (
    <div className={styles.screen} data-testid="mobile-events">
      <NavBar className={styles.titleBar} back={null}>
        <h1 className={styles.title}>{t('events.title')}</h1>
      </NavBar>
      <List mode="card" className={styles.pickers}>
        <List.Item prefix={<span className={styles.pickerLabel}>{t('mobile.source.organisation')}</span>} onClick={() => setSheet('org')} arrowIcon data-testid="events-org-picker">
          {org?.displayName ?? t('mobile.source.organisationPrompt')}
        </List.Item>
        <List.Item prefix={<span className={styles.pickerLabel}>{t('events.filter.ship')}</span>} onClick={() => setSheet('ship')} arrowIcon data-testid="events-ship-picker">
          {ship ? shipDisplayName(ship) : t('events.filter.allShips')}
        </List.Item>
        <List.Item>
          <Selector
            aria-label={t('events.filter.class')}
            data-event-filter="class"
            value={[eventClass]}
            onChange={(v) => refilter(setEventClass)((v[0] ?? ALL) as EventClass | typeof ALL)}
            options={[{ value: ALL, label: t('events.filter.allClasses') }, ...EVENT_CLASSES.map((c) => ({ value: c, label: t(`events.class.${c}`) }))]}
          />
        </List.Item>
        <List.Item>
          <Selector
            aria-label={t('events.filter.acknowledged')}
            data-event-filter="acknowledged"
            value={[ack]}
            onChange={(v) => refilter(setAck)((v[0] ?? 'any') as 'any' | 'no' | 'yes')}
            options={[
              { value: 'any', label: t('events.filter.any') },
              { value: 'no', label: t('events.filter.unacknowledged') },
              { value: 'yes', label: t('events.filter.acknowledgedOnly') },
            ]}
          />
        </List.Item>
        <List.Item prefix={<span className={styles.pickerLabel}>{t('events.filter.range')}</span>}>
          <div className={styles.eventRange}>
            <input type="datetime-local" aria-label={t('events.settings.from')} value={from} onChange={(e) => refilter(setFrom)(e.target.value)} />
            <input type="datetime-local" aria-label={t('events.settings.to')} value={to} onChange={(e) => refilter(setTo)(e.target.value)} />
          </div>
        </List.Item>
        <List.Item>
          <Selector
            value={[view]}
            onChange={(v) => setView((v[0] ?? 'list') as 'list' | 'timeline')}
            options={[
              { value: 'list', label: t('events.view.list') },
              { value: 'timeline', label: t('events.view.timeline') },
            ]}
          />
        </List.Item>
      </List>

      <div className={styles.eventBar}>
        <span data-testid="events-total">{t('events.total', { total })}</span>
        <Button
          size="small"
          color="primary"
          disabled={toAcknowledge.length === 0}
          loading={acknowledgeMany.isPending}
          data-testid="events-acknowledge-selected"
          onClick={() =>
            acknowledgeMany.mutate(toAcknowledge, {
              onSuccess: ({ acknowledged }) => {
                Toast.show({ content: t('events.acknowledgedCount', { count: acknowledged }) });
                setPicked(new Set());
              },
              onError: (error) => Toast.show({ content: t('events.actionFailed', { message: error.message }) }),
            })
          }
        >
          {t('events.acknowledgeSelected')}
        </Button>
      </div>

      {list.isLoading ? (
        <div className={styles.centred}>
          <DotLoading />
        </div>
      ) : list.isError ? (
        <div className={`${styles.centred} ${styles.error}`}>{t('events.loadFailed', { message: list.error.message })}</div>
      ) : events.length === 0 ? (
        <div className={`${styles.centred} ${styles.muted}`}>{t('events.empty')}</div>
      ) : view === 'timeline' ? (
        <MobileTimeline events={events} filter={filter} />
      ) : (
        <List mode="card" data-testid="events-list">
          {events.map((event) => (
            <MobileEventItem
              key={event.id}
              event={event}
              checked={picked.has(event.id)}
              onCheck={(on) => setPicked((prev) => {
                const next = new Set(prev);
                if (on) next.add(event.id);
                else next.delete(event.id);
                return next;
              })}
              onPlay={() => void play(event)}
            />
          ))}
        </List>
      )}

      <div className={styles.eventPager}>
        <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={t('events.page.previous')}>
          ‹
        </Button>
        <span data-testid="events-page">{t('events.page.of', { page, pages })}</span>
        <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)} aria-label={t('events.page.next')}>
          ›
        </Button>
      </div>

      <PickerSheet
        title={t('mobile.source.organisation')}
        open={sheet === 'org'}
        value={org?.id}
        options={orgs.map((o) => ({ value: o.id, label: o.displayName, depth: o.depth }))}
        onPick={(id) => {
          pickOrg(id);
          refilter(setShipId)(ALL);
        }}
        onClose={() => setSheet(null)}
      />
      <PickerSheet
        title={t('events.filter.ship')}
        open={sheet === 'ship'}
        value={shipId}
        options={[{ value: ALL, label: t('events.filter.allShips') }, ...ships.map((s) => ({ value: s.id, label: shipDisplayName(s) }))]}
        onPick={refilter(setShipId)}
        onClose={() => setSheet(null)}
      />
    </div>
  );
}

function classText(t: ReturnType<typeof useEventsTranslation>['t'], event: EventInfo) {
  return classesByScore(event)
    .map((c) => t('events.classScore', { class: t(`events.class.${c.class}`), score: percent(c.score) }))
    .join(' · ');
}

function MobileEventItem({ event, checked, onCheck, onPlay }: { event: EventInfo; checked: boolean; onCheck(on: boolean): void; onPlay(): void }) {
  const { t } = useEventsTranslation();
  const acknowledge = useAcknowledgeEvent();
  const remove = useDeleteEvent();
  const acked = event.acknowledgedAt !== undefined;
  return (
    <List.Item
      data-event-id={event.id}
      prefix={
        <div className={styles.eventThumb}>
          <Checkbox checked={checked} disabled={acked} onChange={onCheck} aria-label={t('events.acknowledge')} />
          <img src={eventPictureUrl(event.id)} alt={t('events.pictureAlt', { ship: event.shipName, camera: event.cameraName, time: time(event.start) })} width={96} loading="lazy" />
        </div>
      }
      description={
        <div>
          <div>{classText(t, event)}</div>
          <div>{event.zone ? `${t('events.column.zone')}: ${event.zone}` : null}</div>
          {acked ? (
            <Tag color="success" data-event-ack="true">
              {t('events.acknowledgedBy', { user: event.acknowledgedBy ?? '', time: time(event.acknowledgedAt ?? 0) })}
            </Tag>
          ) : (
            <Tag color="warning" data-event-ack="false">
              {t('events.unacknowledged')}
            </Tag>
          )}
          <div className={styles.eventActions}>
            <Button size="mini" color="primary" onClick={onPlay} data-event-action="play">
              {t('events.play')}
            </Button>
            {acked ? null : (
              <Button
                size="mini"
                loading={acknowledge.isPending}
                data-event-action="acknowledge"
                onClick={() => acknowledge.mutate(event.id, { onError: (error) => Toast.show({ content: t('events.actionFailed', { message: error.message }) }) })}
              >
                {t('events.acknowledge')}
              </Button>
            )}
            <Button
              size="mini"
              color="danger"
              fill="outline"
              data-event-action="delete"
              onClick={() =>
                void Dialog.confirm({
                  content: t('events.deleteConfirm'),
                  confirmText: t('events.deleteOk'),
                  cancelText: t('events.cancel'),
                  onConfirm: () =>
                    remove.mutateAsync(event.id).then(
                      () => void Toast.show({ content: t('events.deleted') }),
                      (error: Error) => void Toast.show({ content: t('events.actionFailed', { message: error.message }) }),
                    ),
                })
              }
            >
              {t('events.delete')}
            </Button>
          </div>
        </div>
      }
    >
      {event.shipName} · {event.cameraName}
      <div className={styles.muted}>{time(event.start)}</div>
    </List.Item>
  );
}

function MobileTimeline({ events, filter }: { events: EventInfo[]; filter: EventFilter }) {
  const { t } = useEventsTranslation();
  const span = timelineSpan(events, filter);
  return (
    <div className={styles.eventTimeline} data-testid="event-timeline">
      <div className={styles.muted}>{t('events.timeline.hint', { from: time(span.from), to: time(span.to) })}</div>
      {timelineRows(events, span, 0.02).map((row) => (
        <div key={row.key} data-timeline-row={row.cameraId}>
          <div className={styles.ellipsis}>{t('events.timeline.row', { ship: row.shipName, camera: row.cameraName })}</div>
          <div className={styles.eventTrack}>
            {row.marks.map(({ event, left, width }) => {
              const label = t('events.timeline.event', { time: time(event.start), classes: classText(t, event) });
              return (
                <span
                  key={event.id}
                  role="img"
                  aria-label={label}
                  title={label}
                  data-timeline-event={event.id}
                  data-acknowledged={event.acknowledgedAt !== undefined}
                  className={styles.eventMark}
                  style={{ left: `${left * 100}%`, width: `${width * 100}%` }}
                />
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}

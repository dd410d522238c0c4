import { useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { Ship } from '@ship-cctv/protocol';
import { realtime } from '../../../lib/realtime/index.ts';
import { EVENTS_KEY } from '../api/events.ts';
import { eventsDestination, isEventNotice } from '../event-notice.ts';
import { classesByScore, percent } from '../event-view.ts';
import type { EventInfo } from '../api/events.ts';

/** A toast's words for an event: ship, camera and its classes with their best scores, in the page's language. */
export function eventNoticeText(t: TFunction, event: EventInfo): string {
  const classes = classesByScore(event).map((c) => t('events.classScore', { class: t(`events.class.${c.class}`), score: percent(c.score) })).join(' · ');
  return t('events.notice', { ship: event.shipName, camera: event.cameraName, classes });
}

/**
 * Listens on `/events/{shipName}` for each of `ships`: every notice refreshes the events' lists
 * and badges, and `onNotify` runs once per event its organisation's rule says to notify (a
 * repeat after a reconnect runs nothing). The desktop's toasts and the phone's use it alike.
 */
export function useEventNotices(ships: readonly Ship[], onNotify: (event: EventInfo) => void): void {
  const queryClient = useQueryClient();
  const names = useMemo(() => [...new Set(ships.map((s) => s.name))].sort().join('\u0000'), [ships]);
  const shown = useRef(new Set<string>());
  const latest = useRef(onNotify);
  latest.current = onNotify;

  useEffect(() => {
    if (!names) return undefined;
    const offs = names.split('\u0000').map((name) => {
      const destination = eventsDestination(name);
      return realtime.store.subscribe(destination, () => {
        const notice: unknown = realtime.store.getSnapshot(destination);
        if (!isEventNotice(notice)) return;
        void queryClient.invalidateQueries({ queryKey: [EVENTS_KEY] });
        if (notice.type !== 'event' || !notice.notify || shown.current.has(notice.event.id)) return;
        shown.current.add(notice.event.id);
        latest.current(notice.event);
      });
    });
    return () => {
      for (const off of offs) off();
    };
  }, [names, queryClient]);
}

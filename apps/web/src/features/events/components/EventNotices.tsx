import { useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex } from 'antd';
import { useNavigate } from 'react-router';
import type { Ship } from '@ship-cctv/protocol';
import { realtime } from '../../../lib/realtime/index.ts';
import { useMessage } from '../../../shared/message.tsx';
import { EVENTS_KEY } from '../api/events.ts';
import { eventsDestination, isEventNotice } from '../event-notice.ts';
import { classesByScore, percent } from '../event-view.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';

/** The desktop's events screen. */
export const EVENTS_PATH = '/events';

/**
 * New events of the chosen organisation's ships: every notice on `/events/{shipName}` refreshes
 * the lists and the tree's badges, and an event its organisation's rule says to notify shows a
 * toast (in the page's language) that leads to the events screen.
 */
export function EventNotices({ ships }: { ships: readonly Ship[] }) {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const names = useMemo(() => [...new Set(ships.map((s) => s.name))].sort().join('\u0000'), [ships]);
  const shown = useRef(new Set<string>());
  const latest = useRef({ t, message, navigate });
  latest.current = { t, message, navigate };

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
        const { t: tr, message: api, navigate: go } = latest.current;
        const { event } = notice;
        const classes = classesByScore(event).map((c) => tr('events.classScore', { class: tr(`events.class.${c.class}`), score: percent(c.score) })).join(' · ');
        const key = `event-${event.id}`;
        void api.open({
          key,
          type: 'warning',
          duration: 10,
          content: (
            <Flex component="span" gap={8} align="center" data-testid="event-notice" data-event-id={event.id}>
              <span>{tr('events.notice', { ship: event.shipName, camera: event.cameraName, classes })}</span>
              <Button
                size="small"
                type="link"
                onClick={() => {
                  api.destroy(key);
                  void go(EVENTS_PATH);
                }}
              >
                {tr('events.noticeOpen')}
              </Button>
            </Flex>
          ),
        });
      });
    });
    return () => {
      for (const off of offs) off();
    };
  }, [names, queryClient]);
  return null;
}

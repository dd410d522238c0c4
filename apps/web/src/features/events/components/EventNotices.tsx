import { Button, Flex } from 'antd';
import { useNavigate } from 'react-router';
import type { Ship } from '@ship-cctv/protocol';
import { useMessage } from '../../../shared/message.tsx';
import { eventNoticeText, useEventNotices } from '../hooks/useEventNotices.ts';
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
  useEventNotices(ships, (event) => {
    const key = `event-${event.id}`;
    void message.open({
      key,
      type: 'warning',
      duration: 10,
      content: (
        <Flex component="span" gap={8} align="center" data-testid="event-notice" data-event-id={event.id}>
          <span>{eventNoticeText(t, event)}</span>
          <Button
            size="small"
            type="link"
            onClick={() => {
              message.destroy(key);
              void navigate(EVENTS_PATH);
            }}
          >
            {t('events.noticeOpen')}
          </Button>
        </Flex>
      ),
    });
  });
  return null;
}

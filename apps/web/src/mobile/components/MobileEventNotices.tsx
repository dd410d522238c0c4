import { useMemo } from 'react';
import { Toast } from 'antd-mobile';
import { eventNoticeText, useEventNotices, useEventsTranslation } from '../../features/events/index.ts';
import { shipsOf, useOrganisations } from '../../shared/source-tree/index.ts';

/** How long a new event's toast stays on the phone (ms). */
export const EVENT_TOAST_MS = 5_000;

/**
 * The phone's toasts of new events, as the desktop's: every ship of the chosen organisation (and
 * its sub-organisations) is listened to; an event its organisation's rule says to notify shows a
 * toast in the page's language (once), and every notice refreshes the events tab's list.
 */
export function MobileEventNotices() {
  const { t } = useEventsTranslation();
  const { selected } = useOrganisations();
  const node = selected?.node;
  const ships = useMemo(() => (node ? shipsOf(node) : []), [node]);
  useEventNotices(ships, (event) => {
    Toast.show({
      content: (
        <span data-testid="mobile-event-notice" data-event-id={event.id}>
          {eventNoticeText(t, event)}
        </span>
      ),
      duration: EVENT_TOAST_MS,
      position: 'top',
    });
  });
  return null;
}

export default MobileEventNotices;

import { useEffect } from 'react';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * antd's date pickers read "now" (the 此刻/Now button) and "today" (the calendar's marker) from
 * dayjs in its default zone (`dayjs().tz()` once the zone plugin is loaded). While a dialog has its
 * times typed in a zone, that zone is the default, so both follow the zone's clock rather than the
 * browser's; it goes back to the browser's when the dialog closes.
 */
export function usePickerZone(iana: string | undefined): void {
  useEffect(() => {
    dayjs.tz.setDefault(iana);
    return () => dayjs.tz.setDefault();
  }, [iana]);
}

import { type EventInfo, type OrgEventSettings, zoneTime } from '@ship-cctv/protocol';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether an organisation's rule has shore fetch an event's video by itself: one of its classes is among the rule's. */
export function fetchesVideo(rule: OrgEventSettings, event: Pick<EventInfo, 'classes'>): boolean {
  const classes = rule.fetchVideoClasses ?? [];
  return event.classes.some((c) => classes.includes(c.class));
}

/**
 * Whether an organisation's rule makes a toast of an event: one of its classes is among the rule's,
 * and (when the rule has hours) the event starts within them on the rule's clock (UTC unless it
 * names a zone); `from` after `to` spans midnight, and equal hours mean all day.
 */
export function notifies(rule: OrgEventSettings, event: Pick<EventInfo, 'classes' | 'start'>): boolean {
  if (!event.classes.some((c) => rule.notifyClasses.includes(c.class))) return false;
  if (rule.notifyFrom === undefined || rule.notifyTo === undefined) return true;
  const from = minutes(rule.notifyFrom);
  const to = minutes(rule.notifyTo);
  if (from === to) return true;
  const at = zoneTime(event.start, rule.timeZone ?? 'UTC').minuteOfDay;
  return from < to ? at >= from && at < to : at >= from || at < to;
}

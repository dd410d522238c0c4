import type { EventInfo } from './api/events.ts';

/** Where a ship's event notices arrive. */
export const eventsDestination = (shipName: string) => `/events/${shipName}`;

/** What shore sends on `/events/{shipName}`. */
export type EventNoticeMessage =
  | { type: 'event'; event: EventInfo; notify: boolean }
  | { type: 'acknowledged'; id: string; acknowledgedBy: string; acknowledgedAt: number }
  | { type: 'deleted'; id: string };

export function isEventNotice(value: unknown): value is EventNoticeMessage {
  const type = (value as { type?: unknown } | null)?.type;
  if (type === 'event') return typeof (value as { event?: { id?: unknown } }).event?.id === 'string';
  return (type === 'acknowledged' || type === 'deleted') && typeof (value as { id?: unknown }).id === 'string';
}

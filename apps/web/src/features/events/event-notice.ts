import { dest, type EventNotice } from '@ship-cctv/protocol';

/** Where a ship's event notices arrive. */
export const eventsDestination = (shipName: string) => dest.events(shipName);

/** What shore sends on `/events/{shipName}`. */
export type EventNoticeMessage = EventNotice;

export function isEventNotice(value: unknown): value is EventNoticeMessage {
  const type = (value as { type?: unknown } | null)?.type;
  if (type === 'event' || type === 'updated') return typeof (value as { event?: { id?: unknown } }).event?.id === 'string';
  return (type === 'acknowledged' || type === 'deleted') && typeof (value as { id?: unknown }).id === 'string';
}

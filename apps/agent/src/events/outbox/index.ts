/**
 * The ship's event outbox: events the analysis found, kept on disk and sent to shore by
 * store-and-forward (ship-events.ts), one pair of files per event (event-store.ts).
 */
export { type EventSink, type EventsLink, ShipEvents, type ShipEventsOptions } from './ship-events.ts';
export { EventStore } from './event-store.ts';

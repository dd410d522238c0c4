/** The desktop's parts of events, for the app shell to load lazily (app/routes/lazy-pages.ts, app/event-slots.tsx). */
export { EventsPage } from './components/EventsPage.tsx';
export { ShipEventBadge } from './components/ShipEventBadge.tsx';
export { EventNotices, EVENTS_PATH } from './components/EventNotices.tsx';
export { EventSettingsDialog } from './components/EventSettingsDialog.tsx';

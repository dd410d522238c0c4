/**
 * The public face of events (what the ships' analysis found): the API and its hooks, the screens'
 * pure rules and the texts — what the phone's screen builds on too, with no antd in it. The
 * desktop's screen, badge, notices and settings dialog are in pages.ts, which the app shell loads
 * lazily.
 */
export * from './api/events.ts';
export * from './api/event-settings.ts';
export * from './event-view.ts';
export * from './event-notice.ts';
export * from './texts.ts';
export * from './hooks/useEventCamera.ts';
export * from './hooks/useEventNotices.ts';

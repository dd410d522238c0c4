/** Spec §2 mobile routes. */
export const MOBILE_HOME = '/index';
/** Ship-end playback, linked from the footer (spec §2). */
export const MOBILE_PLAYBACK = '/remoteLive';
/** What the ships' analysis found (people, boats, motion). */
export const MOBILE_EVENTS = '/events';

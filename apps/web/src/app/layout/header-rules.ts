/** Organisation whose shore playback is called near-end playback (spec §2, §6). */
export const NEAR_END_ORG_ID = 'njzsz';

/** i18n key of the shore playback menu item for an organisation (used once that screen is built). */
export function shorePlaybackLabel(orgId: string | undefined): 'shell.menu.nearEndPlayback' | 'shell.menu.shorePlayback' {
  return orgId === NEAR_END_ORG_ID ? 'shell.menu.nearEndPlayback' : 'shell.menu.shorePlayback';
}

/** Spec §2: the collapse-sidebar icon shows only on these paths (the ones with a source tree). */
const SIDEBAR_PATHS: ReadonlySet<string> = new Set(['/live/index', '/live/photo', '/live/recordlivevideo', '/recordlivephoto']);

export function hasSidebarToggle(pathname: string): boolean {
  return SIDEBAR_PATHS.has(pathname.replace(/\/+$/, ''));
}

/** The top menu item a path belongs to. */
export function menuKeyOf(pathname: string): string | undefined {
  if (pathname.startsWith('/record/video')) return 'shorePlayback:video';
  if (pathname.startsWith('/record/photo')) return 'shorePlayback:photo';
  if (pathname.startsWith('/recordlivephoto')) return 'shipPhoto';
  if (pathname.startsWith('/carouselConfig')) return 'carousel';
  if (pathname.startsWith('/live/recordlivevideo')) return 'shipPlayback';
  if (pathname.startsWith('/live')) return 'live';
  return undefined;
}

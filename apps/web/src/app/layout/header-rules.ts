/** Spec §2: the collapse-sidebar icon shows only on these paths (the ones with a source tree). */
const SIDEBAR_PATHS: ReadonlySet<string> = new Set(['/live/index', '/live/photo', '/live/recordlivevideo', '/recordlivephoto']);

export function hasSidebarToggle(pathname: string): boolean {
  return SIDEBAR_PATHS.has(pathname.replace(/\/+$/, ''));
}

/** The top menu item a path belongs to. */
export function menuKeyOf(pathname: string): string | undefined {
  if (pathname.startsWith('/record/video')) return 'shorePlayback:video';
  if (pathname.startsWith('/record/photo')) return 'shorePlayback:photo';
  if (pathname.startsWith('/events')) return 'shorePlayback:events';
  if (pathname.startsWith('/recordlivephoto')) return 'shipPhoto';
  if (pathname.startsWith('/carouselConfig')) return 'carousel';
  if (pathname.startsWith('/live/recordlivevideo')) return 'shipPlayback';
  if (pathname.startsWith('/live')) return 'live';
  return undefined;
}

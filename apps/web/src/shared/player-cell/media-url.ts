/**
 * The media socket's URL on the page's own host (runtime config `mediaPath`): wss when the page is
 * https, as the STOMP socket (spec §7). Absolute URLs in the config are taken as they are.
 */
export function mediaSocketUrl(mediaPath: string, page: Pick<Location, 'protocol' | 'host'>): string {
  if (/^wss?:\/\//i.test(mediaPath)) return mediaPath;
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${page.host}${mediaPath.startsWith('/') ? '' : '/'}${mediaPath}`;
}

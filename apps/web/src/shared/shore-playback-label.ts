/** Organisation whose shore playback is called near-end playback (spec §2, §6). */
export const NEAR_END_ORG_ID = 'njzsz';

/** i18n key of the shore playback's name for an organisation: the header's menu item and the screen's title. */
export function shorePlaybackLabel(orgId: string | undefined): 'shell.menu.nearEndPlayback' | 'shell.menu.shorePlayback' {
  return orgId === NEAR_END_ORG_ID ? 'shell.menu.nearEndPlayback' : 'shell.menu.shorePlayback';
}

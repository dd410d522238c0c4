/**
 * A cell's sound: whether its stream has any (the codec event's mime names a sound codec), and the
 * operator's volume for this browser session. A cell always starts muted (browsers autoplay only
 * muted video, and a wall of cells must not all speak at once); the volume chosen last is kept for
 * the session, so unmuting the next cell is one click.
 */

const SOUND_CODECS = /^(mp4a|opus|flac|ac-3|ec-3)\b/i;
const VOLUME_KEY = 'shipcctv.cellVolume';
export const DEFAULT_VOLUME = 0.8;

/** The sound codec named in a `video/mp4; codecs="avc1…,mp4a.40.2"` mime, if any. */
export function soundCodecOf(mime: string | undefined): string | undefined {
  const list = mime ? /codecs="([^"]*)"/i.exec(mime)?.[1] : undefined;
  return list
    ?.split(',')
    .map((c) => c.trim())
    .find((c) => SOUND_CODECS.test(c));
}

/** The volume kept for this session (0–1), or the default. */
export function sessionVolume(storage: Pick<Storage, 'getItem'> | undefined = safeSessionStorage()): number {
  const v = Number(storage?.getItem(VOLUME_KEY));
  return storage?.getItem(VOLUME_KEY) !== null && Number.isFinite(v) && v >= 0 && v <= 1 ? v : DEFAULT_VOLUME;
}

export function keepSessionVolume(volume: number, storage: Pick<Storage, 'setItem'> | undefined = safeSessionStorage()): void {
  try {
    storage?.setItem(VOLUME_KEY, String(Math.min(1, Math.max(0, volume))));
  } catch {
    // Storage full or refused (private mode): the volume is still right for this cell.
  }
}

function safeSessionStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

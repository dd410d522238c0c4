import { execFileSync } from 'node:child_process';
import type { VideoCodec } from '@ship-cctv/protocol';

/** ffmpeg encoders by the codec they make, for the codecs beside H.264 (x264 is a given). */
const ENCODER_OF: Partial<Record<VideoCodec, string>> = { av1: 'libsvtav1' };

const known = new Map<string, ReadonlySet<VideoCodec>>();

/**
 * The video codecs this machine's ffmpeg encodes (H.264 always; AV1 when it has libsvtav1). Asked
 * once per ffmpeg command and kept: the answer is part of the agent's hello, which must not wait.
 */
export function ffmpegVideoCodecs(command = 'ffmpeg'): ReadonlySet<VideoCodec> {
  const cached = known.get(command);
  if (cached) return cached;
  const codecs = new Set<VideoCodec>(['h264']);
  let listing = '';
  try {
    listing = execFileSync(command, ['-hide_banner', '-encoders'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  } catch {
    // No ffmpeg (or it failed): H.264 is still what shore asks for, and that start fails with its reason.
  }
  for (const [codec, encoder] of Object.entries(ENCODER_OF) as [VideoCodec, string][]) {
    if (new RegExp(`^\\s*V\\S*\\s+${encoder}\\s`, 'm').test(listing)) codecs.add(codec);
  }
  known.set(command, codecs);
  return codecs;
}

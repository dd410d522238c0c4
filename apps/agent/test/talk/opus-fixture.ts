import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readOggPackets } from '../../src/talk/ogg-reader.ts';

const run = promisify(execFile);

/**
 * Opus packets as a browser's AudioEncoder makes them for talkback (mono, 48 kHz, 60 ms frames,
 * VoIP mode, `kbps`), here by ffmpeg's libopus from a tone: the raw packets, without Ogg.
 */
export async function opusPackets(seconds: number, kbps = 12, frequency = 440): Promise<Uint8Array[]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=48000:duration=${seconds}`,
      '-ac', '1', '-c:a', 'libopus', '-b:a', `${kbps}k`, '-application', 'voip', '-frame_duration', '60', '-f', 'ogg', 'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  // The first two packets are OpusHead and OpusTags.
  return readOggPackets(new Uint8Array(stdout)).packets.slice(2);
}

/** The raw ffmpeg-made Ogg Opus bytes of a tone (for checksum comparisons). */
export async function ffmpegOgg(seconds: number): Promise<Uint8Array> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`, '-ac', '1', '-c:a', 'libopus', '-b:a', '12k', '-f', 'ogg', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return new Uint8Array(stdout);
}

/** Duration (ffprobe) and mean volume in dB (volumedetect) of an audio file. */
export async function measureAudio(path: string): Promise<{ seconds: number; meanDb: number; maxDb: number }> {
  const probe = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]);
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', path, '-af', 'volumedetect', '-f', 'null', '-']);
  const mean = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr)?.[1];
  const max = /max_volume: (-?[\d.]+|-inf) dB/.exec(stderr)?.[1];
  const db = (s: string | undefined) => (s === undefined || s === '-inf' ? -Infinity : Number(s));
  return { seconds: Number(probe.stdout.trim()), meanDb: db(mean), maxDb: db(max) };
}

/** Root mean square of PCM samples, in dBFS. */
export function pcmDb(pcm: Int16Array): number {
  if (pcm.length === 0) return -Infinity;
  let sum = 0;
  for (const s of pcm) sum += s * s;
  return 20 * Math.log10(Math.sqrt(sum / pcm.length) / 32768);
}

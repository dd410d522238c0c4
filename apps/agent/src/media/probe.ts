import { execFile } from 'node:child_process';
import { type InputProbe, urlKind } from './ffmpeg-args.ts';

/** A declared rate above this is a timebase (RTSP often reports 90000), not a frame rate. */
const MAX_PLAUSIBLE_FPS = 240;

function rate(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const [n, d] = text.split('/').map(Number);
  if (n === undefined || !Number.isFinite(n)) return undefined;
  const value = d === undefined ? n : d > 0 ? n / d : NaN;
  return Number.isFinite(value) && value > 0 && value <= MAX_PLAUSIBLE_FPS ? Math.round(value * 1000) / 1000 : undefined;
}

/** Reads `ffprobe -of json -show_streams` output for the first video stream. */
export function parseProbeOutput(json: string): InputProbe | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  const streams = (parsed as { streams?: unknown[] } | null)?.streams;
  if (!Array.isArray(streams)) return undefined;
  const s = streams.find((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && (x as { codec_type?: unknown }).codec_type === 'video');
  if (!s || typeof s.codec_name !== 'string' || typeof s.width !== 'number' || typeof s.height !== 'number') return undefined;
  const probe: InputProbe = { codec: s.codec_name, width: s.width, height: s.height };
  const fps = rate(s.avg_frame_rate) ?? rate(s.r_frame_rate);
  if (fps !== undefined) probe.frameRate = fps;
  const bps = Number(s.bit_rate);
  if (typeof s.bit_rate === 'string' && Number.isFinite(bps) && bps > 0) probe.bitrateKbps = Math.round(bps / 1000);
  if (typeof s.pix_fmt === 'string') probe.pixFmt = s.pix_fmt;
  return probe;
}

/**
 * ffprobe's view of a camera's first video stream. Rejects when the camera does not answer in time
 * or has no video, with ffprobe's own words (last 1 KiB of its stderr) in the message.
 */
export function probeInput(url: string, timeoutMs = 8_000): Promise<InputProbe> {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-of', 'json'];
  if (urlKind(url) === 'rtsp') args.push('-rtsp_transport', 'tcp');
  args.push('-i', url);
  return new Promise((resolve, reject) => {
    execFile('ffprobe', args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      const probe = err ? undefined : parseProbeOutput(stdout);
      if (probe) return resolve(probe);
      const said = stderr.trim().slice(-1024);
      const why = err?.killed ? `no answer within ${timeoutMs} ms` : said || (err ? err.message : 'no video stream');
      reject(new Error(why));
    });
  });
}

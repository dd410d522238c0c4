import { writeFileSync } from 'node:fs';
import { type AgentPlaybackMessage, BINARY_KIND, type RecordedSpan, decodeCaptureCode, decodeStreamFrame } from '@ship-cctv/protocol';
import type { PlaybackLink } from '../../src/playback/playback-streams.ts';
import { run } from '../media/helpers.ts';

/** A socket stand-in: records what is sent, in order and when, and lets the test set the queue. */
export class FakeLink implements PlaybackLink {
  readonly log: ({ at: number } & ({ json: AgentPlaybackMessage } | { binary: { kind: number; streamId: number; payload: Uint8Array } }))[] = [];
  buffered = 0;
  sendJson(json: AgentPlaybackMessage): void {
    this.log.push({ at: Date.now(), json });
  }
  sendBinary(frame: Uint8Array): void {
    const decoded = decodeStreamFrame(frame);
    if (!decoded) throw new Error('short frame');
    if (decoded.kind !== BINARY_KIND.playback) throw new Error(`binary kind ${decoded.kind}, not playback`);
    // A copy: the sender may reuse its buffer.
    this.log.push({ at: Date.now(), binary: { ...decoded, payload: Uint8Array.from(decoded.payload) } });
  }
  bufferedAmount(): number {
    return this.buffered;
  }
  get json(): AgentPlaybackMessage[] {
    return this.log.flatMap((e) => ('json' in e ? [e.json] : []));
  }
  payloads(streamId: number): Uint8Array[] {
    return this.log.flatMap((e) => ('binary' in e && e.binary.streamId === streamId ? [e.binary.payload] : []));
  }
  bytes(streamId: number): number {
    return this.payloads(streamId).reduce((n, p) => n + p.length, 0);
  }
  of<T extends AgentPlaybackMessage['type']>(type: T, streamId?: number): Extract<AgentPlaybackMessage, { type: T }>[] {
    return this.json.filter(
      (m): m is Extract<AgentPlaybackMessage, { type: T }> => m.type === type && (streamId === undefined || !('streamId' in m) || m.streamId === streamId),
    );
  }
}

/** The payloads of a stream, as one fMP4 file. */
export function writeStream(link: FakeLink, streamId: number, file: string): string {
  writeFileSync(file, Buffer.concat(link.payloads(streamId)));
  return file;
}

/** Every frame of a video file: its presentation time and the capture time its pixels carry. */
export async function decodedFrames(file: string, width: number, height: number): Promise<{ pts: number; code: number | undefined }[]> {
  const { stdout: ptsOut } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'json', file]);
  const pts = (JSON.parse(ptsOut) as { frames: { pts_time: string }[] }).frames.map((f) => Number(f.pts_time));
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 512 * 1024 * 1024,
  });
  const size = width * height;
  const frames: { pts: number; code: number | undefined }[] = [];
  for (let i = 0; (i + 1) * size <= stdout.length; i++) {
    frames.push({ pts: pts[i] ?? NaN, code: decodeCaptureCode(new Uint8Array(stdout.subarray(i * size, (i + 1) * size)), width, height, { channels: 1 }) });
  }
  return frames;
}

/** A recorded stretch of at least `ms` (starting a minute in) and a gap with recording on both sides. */
export function pickRanges(spans: RecordedSpan[], ms: number): { recorded: number; gap: RecordedSpan } {
  const long = spans.find((s) => s.end - s.start >= ms + 120_000);
  if (!long) throw new Error('no long enough recorded span');
  const i = spans.findIndex((s, k) => k > 0 && s.start - spans[k - 1]!.end > 60_000);
  if (i < 1) throw new Error('no gap in the recording');
  return { recorded: long.start + 60_000, gap: { start: spans[i - 1]!.end, end: spans[i]!.start } };
}

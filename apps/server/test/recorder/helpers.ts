/**
 * Helpers for the shore recorder tests: a real fMP4 live stream (ffmpeg, one fragment per frame as
 * the agent sends it) cut into units by the relay's splitter, and a stand-in for the live source
 * the recorder taps (it only reads the camera and ship ids).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { DefinitionModel } from '@ship-cctv/protocol';
import type { LiveMediaTap, LiveSource } from '../../src/modules/live/live-source.ts';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../src/core/media/fmp4.ts';
import { makeClip } from '../media/helpers.ts';
import { RECORDING_META_FILE } from '../../src/modules/recorder/segment-file.ts';

/** The segment files in a recording's folder, sorted (its description file aside). */
export const segmentFilesIn = (folder: string): string[] => readdirSync(folder).filter((n) => n !== RECORDING_META_FILE).sort();

const run = promisify(execFile);

export interface LiveStream {
  init: InitSegment;
  fragments: MediaFragment[];
}

export const STANDARD: DefinitionModel = { id: 6, displayName: 'Standard 640×360', width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' };

/** `seconds` of 10 fps H.264 at 320×180 with a keyframe every second, split as the relay splits it. */
export async function liveStream(dir: string, name: string, seconds: number): Promise<LiveStream> {
  const file = await makeClip(dir, { name, width: 320, height: 180, profile: 'baseline', seconds, rate: 10, gop: 10 });
  const units = new RelaySplitter().push(await readFile(file));
  const init = units.find((u): u is InitSegment => u.kind === 'init');
  if (!init) throw new Error('no init segment');
  return { init, fragments: units.filter((u): u is MediaFragment => u.kind === 'fragment') };
}

export function fakeSource(cameraId: string, shipId: string): LiveSource {
  return { cameraId, shipId } as unknown as LiveSource;
}

/** Feeds a whole stream to the tap as the live source would, then ends it. */
export function feed(tap: LiveMediaTap, source: LiveSource, stream: LiveStream, model: DefinitionModel = STANDARD, end = true): void {
  tap.init(source, stream.init, model);
  for (const f of stream.fragments) tap.fragment(source, f);
  if (end) tap.end(source);
}

export interface Probe {
  codec: string;
  frames: number;
  duration: number;
}

/** ffprobe decoding every frame: codec, frame count and container duration (s). */
export async function probeFile(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v', 'error', '-count_frames', '-select_streams', 'v:0',
    '-show_entries', 'stream=codec_name,nb_read_frames:format=duration', '-of', 'json', file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: { codec_name: string; nb_read_frames: string }[]; format: { duration?: string } };
  const s = parsed.streams[0];
  if (!s) throw new Error(`no video stream in ${file}`);
  return { codec: s.codec_name, frames: Number(s.nb_read_frames), duration: Number(parsed.format.duration ?? NaN) };
}

/** ffmpeg decodes the whole file without a single error message. */
export async function decodesCleanly(file: string): Promise<boolean> {
  const { stderr } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  return stderr.trim() === '';
}

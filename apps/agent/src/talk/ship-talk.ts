import { EventEmitter } from 'node:events';
import { type WriteStream, createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentMessage, type ShoreMessageOf, type TalkFormat, unpackTalkPackets } from '@ship-cctv/protocol';
import type { KindHandler } from '../agent-link/router.ts';
import { OggOpusWriter } from './ogg-opus-writer.ts';
import { OpusPcmDecoder } from './opus-pcm-decoder.ts';
import { PcmDecoder } from './pcm-decoder.ts';

/**
 * Where the operator's voice is heard on the ship: PCM, signed 16-bit, mono, 16 000 Hz
 * (SPEAKER_RATE), in the order it was spoken, a chunk at a time, for the camera talked through.
 * The demo's synthetic camera mixes it into its sound; a ship's PA output would play it.
 */
export interface ShipSpeaker {
  play(cameraId: string, pcm: Int16Array): void;
}

export interface TalkLink {
  sendJson(message: AgentMessage): void;
}

export interface ShipTalkOptions {
  /** Each talk is kept as `<dataDir>/talk/<camera>/<time>.ogg` (`.webm` from the fallback); none without. */
  dataDir?: string | undefined;
  /** Default: none (the voice is only kept in the file). */
  speaker?: ShipSpeaker | undefined;
}

export interface ShipTalkEvents {
  /** A talk ended on the ship: its file (absolute; undefined without a data directory) and the voice bytes it took. */
  ended: [talk: { cameraId: string; streamId: number; file: string | undefined; bytes: number; seconds: number }];
}

interface Talk {
  cameraId: string;
  streamId: number;
  format: TalkFormat;
  /** Opus packets: kept as Ogg Opus, decoded in-process. */
  opus: { writer: OggOpusWriter; decoder: OpusPcmDecoder } | undefined;
  /** The fallback's WebM: kept as it came, decoded by ffmpeg. */
  webm: PcmDecoder | undefined;
  file: WriteStream | undefined;
  path: string | undefined;
  bytes: number;
}

/** A file name from a time: ISO 8601 without the colons some file systems refuse. */
const fileTime = (ms: number) => new Date(ms).toISOString().replace(/:/g, '-');

/**
 * The ship's end of talkback (link kind `talk`): one talk per camera backchannel — a second
 * `talk.open` for a camera in use answers `talk.failed` `occupied`. Each talk's voice is written to
 * a file as it comes (Ogg Opus, or the browser's WebM as it is) and decoded to PCM for the speaker
 * (Opus in-process as each message arrives; the WebM by a streaming ffmpeg).
 * A talk ends on `talk.close`, or when the link to shore goes (detach).
 */
export class ShipTalk extends EventEmitter<ShipTalkEvents> implements KindHandler<'talk'> {
  private link: TalkLink | undefined;
  private readonly talks = new Map<number, Talk>();
  private speaker: ShipSpeaker | undefined;

  constructor(
    private readonly cameraIds: ReadonlySet<string>,
    private readonly opts: ShipTalkOptions = {},
  ) {
    super();
    this.speaker = opts.speaker;
  }

  /** Sets (or removes) where the voice is played. */
  useSpeaker(speaker: ShipSpeaker | undefined): void {
    this.speaker = speaker;
  }

  attach(link: TalkLink): void {
    this.link = link;
  }

  /** The link to shore is gone: every talk ends (shore has ended them too). */
  detach(): void {
    this.link = undefined;
    for (const id of [...this.talks.keys()]) void this.finish(id);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.talks.keys()].map((id) => this.finish(id)));
  }

  message(msg: ShoreMessageOf<'talk'>): void {
    if (msg.type === 'talk.close') {
      void this.finish(msg.streamId);
      return;
    }
    const { streamId, cameraId } = msg;
    const fail = (code: 'occupied' | 'failed', message: string) => this.link?.sendJson({ type: 'talk.failed', streamId, code, message });
    if (!this.cameraIds.has(cameraId)) return fail('failed', `camera ${cameraId} is not on this ship`);
    const busy = [...this.talks.values()].find((t) => t.cameraId === cameraId);
    if (busy) return fail('occupied', `the backchannel of camera ${cameraId} is in use`);
    const format = msg.format ?? 'opus';
    let path: string | undefined;
    let file: WriteStream | undefined;
    if (this.opts.dataDir) {
      const dir = join(this.opts.dataDir, 'talk', cameraId.replace(/[^\w.-]/g, '_'));
      mkdirSync(dir, { recursive: true });
      path = join(dir, `${fileTime(Date.now())}.${format === 'opus' ? 'ogg' : 'webm'}`);
      file = createWriteStream(path);
      file.on('error', () => undefined); // a full disk loses the file, not the talk
    }
    const play = (pcm: Int16Array) => this.speaker?.play(cameraId, pcm);
    const failed = (message: string) => {
      if (this.talks.get(streamId) === talk) fail('failed', `the voice could not be decoded: ${message}`);
    };
    const talk: Talk = {
      cameraId,
      streamId,
      format,
      opus: format === 'opus' ? { writer: new OggOpusWriter(), decoder: new OpusPcmDecoder(play, failed) } : undefined,
      webm: format === 'webm' ? new PcmDecoder('webm', play, failed) : undefined,
      file,
      path,
      bytes: 0,
    };
    this.talks.set(streamId, talk);
    if (talk.opus) talk.file?.write(talk.opus.writer.head());
    this.link?.sendJson({ type: 'talk.opened', streamId });
  }

  data(streamId: number, payload: Uint8Array): void {
    const talk = this.talks.get(streamId);
    if (!talk) return;
    talk.bytes += payload.length;
    if (talk.webm) {
      talk.file?.write(payload);
      talk.webm.write(payload);
      return;
    }
    const packets = unpackTalkPackets(payload);
    if (!talk.opus || !packets || packets.length === 0) return;
    talk.opus.decoder.decode(packets);
    talk.file?.write(talk.opus.writer.packets(packets));
  }

  private async finish(streamId: number): Promise<void> {
    const talk = this.talks.get(streamId);
    if (!talk) return;
    this.talks.delete(streamId);
    if (talk.opus) {
      talk.opus.decoder.end();
      talk.file?.write(talk.opus.writer.end());
    }
    const fileDone = talk.file ? new Promise<void>((resolve) => talk.file?.end(resolve)) : Promise.resolve();
    await Promise.all([talk.webm?.end(), fileDone]);
    const seconds = talk.opus ? talk.opus.writer.samples / 48_000 : 0;
    this.emit('ended', { cameraId: talk.cameraId, streamId, file: talk.path, bytes: talk.bytes, seconds });
  }

}

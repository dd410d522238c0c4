import { EventEmitter } from 'node:events';
import { type WriteStream, createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentMessage, type ShoreMessageOf, type TalkFormat, unpackTalkPackets } from '@ship-cctv/protocol';
import type { KindHandler } from '../agent-link/router.ts';
import { OggOpusWriter } from './ogg-opus-writer.ts';
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
  writer: OggOpusWriter | undefined;
  file: WriteStream | undefined;
  path: string | undefined;
  decoder: PcmDecoder;
  bytes: number;
}

/** A file name from a time: ISO 8601 without the colons some file systems refuse. */
const fileTime = (ms: number) => new Date(ms).toISOString().replace(/:/g, '-');

/**
 * The ship's end of talkback (link kind `talk`): one talk per camera backchannel — a second
 * `talk.open` for a camera in use answers `talk.failed` `occupied`. Each talk's voice is written to
 * a file as it comes (Ogg Opus, or the browser's WebM as it is) and decoded to PCM for the speaker.
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
    const decoder = new PcmDecoder(
      format === 'opus' ? 'ogg' : 'webm',
      (pcm) => this.speaker?.play(cameraId, pcm),
      (message) => {
        if (this.talks.get(streamId)?.decoder === decoder) fail('failed', `the voice could not be decoded: ${message}`);
      },
    );
    const talk: Talk = { cameraId, streamId, format, writer: format === 'opus' ? new OggOpusWriter() : undefined, file, path, decoder, bytes: 0 };
    this.talks.set(streamId, talk);
    if (talk.writer) this.write(talk, talk.writer.head());
    this.link?.sendJson({ type: 'talk.opened', streamId });
  }

  data(streamId: number, payload: Uint8Array): void {
    const talk = this.talks.get(streamId);
    if (!talk) return;
    talk.bytes += payload.length;
    if (!talk.writer) return this.write(talk, payload);
    const packets = unpackTalkPackets(payload);
    if (packets && packets.length > 0) this.write(talk, talk.writer.packets(packets));
  }

  private write(talk: Talk, bytes: Uint8Array): void {
    talk.file?.write(bytes);
    talk.decoder.write(bytes);
  }

  private async finish(streamId: number): Promise<void> {
    const talk = this.talks.get(streamId);
    if (!talk) return;
    this.talks.delete(streamId);
    if (talk.writer) this.write(talk, talk.writer.end());
    const fileDone = talk.file ? new Promise<void>((resolve) => talk.file?.end(resolve)) : Promise.resolve();
    await Promise.all([talk.decoder.end(), fileDone]);
    const seconds = talk.writer ? talk.writer.samples / 48_000 : 0;
    this.emit('ended', { cameraId: talk.cameraId, streamId, file: talk.path, bytes: talk.bytes, seconds });
  }

}

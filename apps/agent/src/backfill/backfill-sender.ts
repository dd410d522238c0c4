import { createReadStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AgentMessage, BACKFILL_MAX_FILES, BINARY_KIND, type EncodeSpec, type ShoreMessageOf, encodeStreamFrame } from '@ship-cctv/protocol';
import type { KindHandler } from '../agent-link/router.ts';
import type { SegmentFileEntry } from '../camera-source.ts';
import type { ShipRecorder } from '../recorder/ship-recorder.ts';
import { BACKGROUND_FRAME_BYTES } from '../uplink/scheduler.ts';
import { type FilePart, filePart } from './file-part.ts';
import { backfillPlan, startTranscoding } from './transcode.ts';

/** Where backfill's answers and bytes go while the link is up. */
export interface BackfillLink {
  /** A control message (answers to `backfill.list`). */
  sendJson(msg: AgentMessage): void;
  /** Something in the backfill class of the uplink: a file's frames, then its `backfill.sent` after them. */
  sendBackfill(data: string | Uint8Array): void;
  /** Bytes of backfill waiting in the uplink's queue (absent: not known, nothing is held back). */
  queuedBackfill?(): number;
}

export interface BackfillSenderOptions {
  frameBytes?: number;
  /** Sends a span in the definition shore asks for (BACKFILL_TRANSCODE_CAPABILITY); false: always the ship's own bytes. Default true. */
  transcode?: boolean;
  /** The ffmpeg to run (default `ffmpeg`). */
  ffmpegCommand?: string;
}

/** A file is read on only while less than this of backfill waits in the uplink's queue: memory holds a few frames, not the file. */
export const BACKFILL_QUEUE_BYTES = 16 * BACKGROUND_FRAME_BYTES;
/** How often a held-back read looks at the queue again (ms). */
const QUEUE_POLL_MS = 20;

/**
 * The ship's end of backfill: lists a camera's closed segment files over a span and sends one file
 * (or the whole fragments of it covering a span: file-part.ts) when shore asks — byte for byte, or
 * transcoded into the definition shore asks for when that is lower than what the ship recorded
 * (transcode.ts). Its bytes go in the uplink's lowest class in frames of at most
 * BACKGROUND_FRAME_BYTES, so everything else the ship sends overtakes them, read from the file (or
 * the transcoder) only as fast as the uplink takes them; the closing `backfill.sent` follows them in
 * the same queue. Only files of the camera's own index are sent: a name shore gives is looked up
 * there (by the file's time when shore gives it), never joined to a path.
 */
export class BackfillSender implements KindHandler<'backfill'> {
  private link: BackfillLink | undefined;
  private readonly frameBytes: number;
  /** Whether this agent sends a span in the definition asked (its hello says so). */
  readonly transcodes: boolean;

  constructor(
    private readonly recorder: ShipRecorder,
    private readonly opts: BackfillSenderOptions = {},
  ) {
    this.frameBytes = opts.frameBytes ?? BACKGROUND_FRAME_BYTES;
    this.transcodes = opts.transcode ?? true;
  }

  attach(link: BackfillLink): void {
    this.link = link;
  }

  /** The link went: what was queued is dropped with it (shore asks again). */
  detach(): void {
    this.link = undefined;
  }

  message(msg: ShoreMessageOf<'backfill'>): void {
    if (msg.type === 'backfill.list') this.list(msg);
    else void this.fetch(msg);
  }

  private list(msg: Extract<ShoreMessageOf<'backfill'>, { type: 'backfill.list' }>): void {
    const { requestId, cameraId, start, end } = msg;
    const recording = this.recorder.recording(cameraId);
    if (end <= start) return this.link?.sendJson({ type: 'backfill.refused', requestId, message: `bad time range ${start}–${end}: the end must come after the start` });
    if (!recording?.segmentFiles) return this.link?.sendJson({ type: 'backfill.refused', requestId, message: `camera ${cameraId} has no recorded files on this ship` });
    const segments = recording
      .segmentFiles(start, end)
      .slice(0, BACKFILL_MAX_FILES)
      .map((s) => ({ file: s.file, start: s.start, end: s.end, bytes: s.bytes }));
    this.link?.sendJson({ type: 'backfill.segments', requestId, cameraId, segments });
  }

  /** The camera's closed segment file of that name: found by its start when shore gives it (else, or a start gone stale, by name). */
  private entry(cameraId: string, file: string, fileStart: number | undefined): SegmentFileEntry | undefined {
    const recording = this.recorder.recording(cameraId);
    if (recording?.segmentFile) return recording.segmentFile(file, fileStart) ?? (fileStart === undefined ? undefined : recording.segmentFile(file));
    return recording?.segmentFiles?.(0, Number.MAX_SAFE_INTEGER).find((s) => s.file === file);
  }

  private async fetch(msg: Extract<ShoreMessageOf<'backfill'>, { type: 'backfill.fetch' }>): Promise<void> {
    const { streamId, cameraId, file, from, to } = msg;
    const entry = this.entry(cameraId, file, msg.fileStart);
    const link = this.link;
    if (!link) return;
    if (!entry) return link.sendJson({ type: 'backfill.failed', streamId, message: `camera ${cameraId} has no segment file ${file} (removed by retention?)` });
    const failed = (what: string, err: unknown) => link.sendJson({ type: 'backfill.failed', streamId, message: `${what} ${file}: ${err instanceof Error ? err.message : String(err)}` });
    let part: FilePart;
    try {
      // Only what covers the span asked for (a gap's first and last files hold time shore has).
      part = await filePart(entry.path, entry.start, entry.end, from ?? entry.start, to ?? entry.end);
    } catch (err) {
      return failed('reading', err);
    }
    // The link may have gone (and come back) while the file was read: a new link has new streams.
    if (this.link !== link) return;
    const plan = msg.encode && this.transcodes && part.definition ? backfillPlan(part.definition, msg.encode) : { copy: true as const };
    if (!plan.copy) {
      const sent = await this.sendTranscoded(link, streamId, entry.path, part, plan.encode).catch((err: unknown) => err);
      if (typeof sent === 'number') {
        link.sendBackfill(JSON.stringify({ type: 'backfill.sent', streamId, bytes: sent, start: part.start, end: part.end, encoded: plan.encode } satisfies AgentMessage));
        return;
      }
      // Nothing went up yet: shore gets the ship's own bytes instead. Something did: the stream is spoilt.
      if (!(sent instanceof NothingSent)) return this.link === link ? failed('transcoding', sent) : undefined;
    }
    try {
      await this.sendRanges(link, streamId, entry.path, part);
    } catch (err) {
      return this.link === link ? failed('reading', err) : undefined;
    }
    if (this.link !== link) return;
    const span = part.whole ? {} : { start: part.start, end: part.end };
    link.sendBackfill(JSON.stringify({ type: 'backfill.sent', streamId, bytes: part.bytes, ...span } satisfies AgentMessage));
  }

  /** Waits while the uplink holds enough backfill; false once the link is gone. */
  private async room(link: BackfillLink): Promise<boolean> {
    while (this.link === link && (link.queuedBackfill?.() ?? 0) > BACKFILL_QUEUE_BYTES) await sleep(QUEUE_POLL_MS);
    return this.link === link;
  }

  private sendFrames(link: BackfillLink, streamId: number, bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; at += this.frameBytes) {
      link.sendBackfill(encodeStreamFrame(BINARY_KIND.backfill, streamId, bytes.subarray(at, at + this.frameBytes)));
    }
  }

  /** The part's ranges of the file, read a frame at a time as the uplink takes them. */
  private async sendRanges(link: BackfillLink, streamId: number, path: string, part: FilePart): Promise<void> {
    for (const range of part.ranges) {
      if (range.to <= range.from) continue;
      const stream = createReadStream(path, { start: range.from, end: range.to - 1, highWaterMark: this.frameBytes });
      try {
        for await (const chunk of stream) {
          if (!(await this.room(link))) return;
          this.sendFrames(link, streamId, chunk as Buffer);
        }
      } finally {
        stream.destroy();
      }
    }
  }

  /** The part transcoded into `encode`, sent as it comes out of ffmpeg; its bytes. Rejects with NothingSent when it failed before any byte went up. */
  private async sendTranscoded(link: BackfillLink, streamId: number, path: string, part: FilePart, encode: EncodeSpec): Promise<number> {
    let sent = 0;
    const transcoding = startTranscoding(
      encode,
      (chunk) => {
        if (this.link !== link) return;
        sent += chunk.length;
        this.sendFrames(link, streamId, chunk);
      },
      this.opts.ffmpegCommand,
    );
    try {
      for (const range of part.ranges) {
        if (range.to <= range.from) continue;
        const stream = createReadStream(path, { start: range.from, end: range.to - 1, highWaterMark: 64 * 1024 });
        try {
          for await (const chunk of stream) {
            if (!(await this.room(link))) throw new Error('the link went');
            await transcoding.write(chunk as Buffer);
          }
        } finally {
          stream.destroy();
        }
      }
      await transcoding.end();
      if (sent === 0) throw new Error('ffmpeg put out nothing');
    } catch (err) {
      transcoding.kill();
      throw sent === 0 ? new NothingSent(err) : err;
    }
    if (this.link !== link) throw new Error('the link went');
    return sent;
  }
}

/** Transcoding failed before anything went up: the ship's own bytes can still be sent. */
class NothingSent extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

import { readFile } from 'node:fs/promises';
import { type AgentMessage, BACKFILL_MAX_FILES, BINARY_KIND, type ShoreMessageOf, encodeStreamFrame } from '@ship-cctv/protocol';
import type { KindHandler } from '../agent-link/router.ts';
import { filePart } from './file-part.ts';
import type { ShipRecorder } from '../recorder/ship-recorder.ts';
import { BACKGROUND_FRAME_BYTES } from '../uplink/scheduler.ts';

/** Where backfill's answers and bytes go while the link is up. */
export interface BackfillLink {
  /** A control message (answers to `backfill.list`). */
  sendJson(msg: AgentMessage): void;
  /** Something in the backfill class of the uplink: a file's frames, then its `backfill.sent` after them. */
  sendBackfill(data: string | Uint8Array): void;
}

/**
 * The ship's end of backfill: lists a camera's closed segment files over a span and sends one file
 * (or the whole fragments of it covering a span: file-part.ts), byte for byte, when shore asks. Its bytes go in the uplink's lowest class in frames of at most
 * BACKGROUND_FRAME_BYTES, so everything else the ship sends overtakes them; the closing
 * `backfill.sent` follows them in the same queue. Only files of the camera's own index are sent: a
 * name shore gives is looked up there, never joined to a path.
 */
export class BackfillSender implements KindHandler<'backfill'> {
  private link: BackfillLink | undefined;

  constructor(
    private readonly recorder: ShipRecorder,
    private readonly frameBytes = BACKGROUND_FRAME_BYTES,
  ) {}

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

  private async fetch(msg: Extract<ShoreMessageOf<'backfill'>, { type: 'backfill.fetch' }>): Promise<void> {
    const { streamId, cameraId, file, from, to } = msg;
    const recording = this.recorder.recording(cameraId);
    const entry = recording?.segmentFiles?.(0, Number.MAX_SAFE_INTEGER).find((s) => s.file === file);
    const link = this.link;
    if (!link) return;
    if (!entry) return link.sendJson({ type: 'backfill.failed', streamId, message: `camera ${cameraId} has no segment file ${file} (removed by retention?)` });
    let whole: Buffer;
    try {
      whole = await readFile(entry.path);
    } catch (err) {
      return link.sendJson({ type: 'backfill.failed', streamId, message: `reading ${file}: ${err instanceof Error ? err.message : String(err)}` });
    }
    // The link may have gone (and come back) while the file was read: a new link has new streams.
    if (this.link !== link) return;
    // Only what covers the span asked for (a gap's first and last files hold time shore has).
    const part = filePart(whole, entry.start, entry.end, from ?? entry.start, to ?? entry.end);
    const { bytes } = part;
    for (let at = 0; at < bytes.length; at += this.frameBytes) {
      link.sendBackfill(encodeStreamFrame(BINARY_KIND.backfill, streamId, bytes.subarray(at, at + this.frameBytes)));
    }
    const span = bytes === whole ? {} : { start: part.start, end: part.end };
    link.sendBackfill(JSON.stringify({ type: 'backfill.sent', streamId, bytes: bytes.length, ...span } satisfies AgentMessage));
  }
}

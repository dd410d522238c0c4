import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { videoDefinition, wholeFragments } from '@ship-cctv/media';
import type { BackfillDefinition, BackfilledDefinition, EncodeSpec, ShipConfig, ShipSegmentFile } from '@ship-cctv/protocol';
import { mimeFor } from '../../core/media/fmp4.ts';
import type { OrgTree } from '../../core/orgs/org-tree.ts';
import { type LinkStreams, ShipAskError, ask } from '../../core/ship-link/index.ts';
import { type NewRecording, RECORDING_META_FILE, type RecordingStore, type SharedSegments, partialFileName, segmentFileName, syncFolder } from '../recorder/index.ts';
import { type AskedDefinition, askedDefinition, backfillChoice } from './definition.ts';
import { type Span, filesForGap, refillableGaps } from './gaps.ts';
import type { BackfillRepo, BackfillTarget } from './repo.ts';
import type { BackfillSettings } from './settings.ts';

export interface BackfillServiceDeps {
  repo: BackfillRepo;
  /** The shore recorder's index, where refilled spans are written as recordings marked backfilled. */
  store: RecordingStore;
  /** The shore recorder's folder. */
  root: string;
  shared?: SharedSegments | undefined;
  streams: LinkStreams;
  /** Ships whose link this instance holds and whose agent handles backfill: only the link's holder refills a ship. */
  shipsHere(): string[];
  orgs(): Promise<OrgTree>;
  /** Bytes the ship may still spend on backfill (its budget's day and month caps). */
  budgetLeft(shipId: string): Promise<number>;
  /** The ship's definitions (groups, models, default group). */
  definitions(shipId: string): Promise<ShipConfig>;
  /** Whether the ship's agent sends a span in the definition asked (BACKFILL_TRANSCODE_CAPABILITY); else it gets the ship's own files. */
  transcodes(shipId: string): boolean;
  settings: BackfillSettings;
  log: FastifyBaseLogger;
  now?: () => number;
}

/** A span of a camera's shore recording waiting for backfill (`pending`) or being copied now (`running`). */
export interface PendingBackfill extends Span {
  state: 'pending' | 'running';
  /** Why it waits, when it is not simply its turn: the ship's backfill budget is used up for now. */
  waitingFor?: 'budget';
}

/** What one refill of a gap did. */
export interface BackfillResult {
  shipId: string;
  cameraId: string;
  gap: Span;
  /**
   * filled: every file the ship had for it was copied; nothing: the ship had no file;
   * budget/offline/failed: stopped early; unsupported: the ship's agent does not do backfill (older).
   */
  outcome: 'filled' | 'nothing' | 'budget' | 'offline' | 'failed' | 'unsupported';
  files: number;
  /** Bytes of the ship's files the copies were taken from, whole (what the ship's own index says they hold). */
  fileBytes: number;
  /** Bytes the ship sent for the gap: the files, or for a file reaching past the gap the part of it covering the gap. */
  shipBytes: number;
  /** Bytes received for them (must equal shipBytes: what is sent is copied as it is). */
  receivedBytes: number;
  /** Span the copies cover. */
  covered: Span | null;
  /** The choice that applied (BACKFILL_DEFINITIONS) and what it asked the ship for (null: the ship's own files). */
  choice: BackfillDefinition;
  asked: EncodeSpec | null;
  /** Of `files`, those the ship transcoded into `asked` (the others are its own bytes). */
  transcodedFiles: number;
  recordingId: string | null;
  ms: number;
}

type Outcome = BackfillResult['outcome'];

/** A backfilled recording being written: its next file's number and what its files hold so far. */
interface OpenRecording {
  recording: NewRecording;
  seq: number;
  transcoded: boolean;
  width: number;
  height: number;
  codec: string;
  bytes: number;
  samples: number;
  durationMs: number;
}

/** What a backfilled recording holds, over all its files. */
function measured(r: OpenRecording): BackfilledDefinition {
  const seconds = Math.max(r.durationMs, 1) / 1000;
  return {
    width: r.width,
    height: r.height,
    frameRate: Math.round((r.samples / seconds) * 100) / 100,
    bitrateKbps: Math.max(1, Math.round((r.bytes * 8) / seconds / 1000)),
    codec: r.codec,
    transcoded: r.transcoded,
  };
}

/**
 * What a file is expected to cost: its bytes, or in a definition asked, that definition's bits for
 * its length with half again for keyframes and boxes (never more than the file: the ship copies
 * rather than grow it).
 */
function expectedBytes(file: ShipSegmentFile, encode: EncodeSpec | undefined): number {
  if (!encode) return file.bytes;
  return Math.min(file.bytes, Math.round((encode.bitrateKbps * 1000 * 1.5 * (file.end - file.start)) / 8 / 1000) + 4_096);
}
const RESULTS_KEPT = 1_000;

/** The parts of `span` no recording covers, oldest first. */
export function uncovered(span: Span, runs: readonly Span[]): Span[] {
  const out: Span[] = [];
  let at = span.start;
  for (const run of [...runs].sort((a, b) => a.start - b.start)) {
    if (run.end <= at) continue;
    if (run.start >= span.end) break;
    if (run.start > at) out.push({ start: at, end: run.start });
    at = Math.max(at, run.end);
    if (at >= span.end) break;
  }
  if (at < span.end) out.push({ start: at, end: span.end });
  return out;
}
const key = (shipId: string, cameraId: string) => `${shipId}\u0000${cameraId}`;

/**
 * Backfill: keeps the shore recording whole from the ship recorder. For each ship whose link this
 * instance holds — after its link comes back and every `everyMs` — it looks at each camera whose
 * recording configuration has backfill on (and whose organisation allows it) for gaps in the shore
 * recording (refillableGaps: between two recordings, the earlier cut short by a link down, a held
 * budget or a shore instance gone), asks the ship which segment files cover each gap, and copies
 * them one at a time, as they are on the ship's disk (no decoding, no encoding; the ship sends them
 * in the lowest class of its uplink), into a new recording marked backfilled. Each ship's budget for
 * backfill (its data budget's `backfill` caps, else the server's daily default) bounds what is
 * copied; what is left waits for the next day. One pass per ship at a time.
 */
export class BackfillService {
  private timer: NodeJS.Timeout | undefined;
  private readonly delays = new Set<NodeJS.Timeout>();
  private readonly passes = new Map<string, Promise<BackfillResult[]>>();
  private readonly pending = new Map<string, PendingBackfill[]>();
  /** Gaps the ship had nothing for (camera off, retention), by ship, camera and span: when they may be asked again. */
  private readonly quiet = new Map<string, number>();
  private readonly closing = new AbortController();
  /** The latest refills (tests and figures; the last RESULTS_KEPT). */
  readonly results: BackfillResult[] = [];

  constructor(private readonly deps: BackfillServiceDeps) {}

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  start(): void {
    if (!this.deps.settings.enabled) return;
    this.timer = setInterval(() => {
      for (const shipId of this.deps.shipsHere()) void this.runShip(shipId);
    }, this.deps.settings.everyMs);
    this.timer.unref();
  }

  /** The ship's link came back here: a look at its gaps once its live recordings have started again. */
  shipOnline(shipId: string): void {
    if (!this.deps.settings.enabled || this.closing.signal.aborted) return;
    const timer = setTimeout(() => {
      this.delays.delete(timer);
      void this.runShip(shipId);
    }, this.deps.settings.afterOnlineMs);
    timer.unref();
    this.delays.add(timer);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const t of this.delays) clearTimeout(t);
    this.delays.clear();
    this.closing.abort(new Error('the server is closing'));
    await Promise.allSettled([...this.passes.values()]);
  }

  /**
   * Spans of a camera's shore recording that backfill will refill (`pending`) or is copying now
   * (`running`), oldest first: what the timeline shows as "backfill pending" / "in progress". Known
   * on the instance that holds the ship's link.
   */
  pendingBackfill(shipId: string, cameraId: string): PendingBackfill[] {
    return (this.pending.get(key(shipId, cameraId)) ?? []).map((p) => ({ ...p }));
  }

  /** The ships whose link this instance holds and whose agent does backfill: those the periodic look covers. */
  shipsWithBackfill(): string[] {
    return this.deps.shipsHere();
  }

  /** Looks at one ship's gaps and refills them (a pass already running is joined). */
  runShip(shipId: string): Promise<BackfillResult[]> {
    let pass = this.passes.get(shipId);
    if (!pass) {
      pass = this.pass(shipId)
        .catch((err: unknown) => {
          this.deps.log.warn({ err, shipId }, 'backfill: a pass over the ship failed');
          return [];
        })
        .finally(() => this.passes.delete(shipId));
      this.passes.set(shipId, pass);
    }
    return pass;
  }

  /**
   * Copies a camera's span of the ship's recording into the shore recording now — an event's
   * video its organisation's rule asks for —: the parts the shore recording does not hold, as a
   * refill does, within the ship's backfill budget. What the budget cannot take is skipped
   * (outcome `budget`), not kept for later. After a pass over the ship running now (one at a time
   * per ship). Nothing ([]) with backfill off on this server (BACKFILL=off), for a ship whose agent
   * does no backfill here, or a camera not recorded on shore (no enabled recording configuration
   * to record it in).
   */
  fetchSpan(shipId: string, cameraId: string, span: Span): Promise<BackfillResult[]> {
    if (!this.deps.settings.enabled || this.closing.signal.aborted || !this.deps.shipsHere().includes(shipId)) return Promise.resolve([]);
    const before = this.passes.get(shipId) ?? Promise.resolve([]);
    const mine: Promise<BackfillResult[]> = before
      .then(() => this.spanPass(shipId, cameraId, span))
      .catch((err: unknown) => {
        this.deps.log.warn({ err, shipId, cameraId }, 'backfill: fetching a span for an event failed');
        return [];
      })
      .finally(() => {
        if (this.passes.get(shipId) === mine) this.passes.delete(shipId);
      });
    this.passes.set(shipId, mine);
    return mine;
  }

  private async spanPass(shipId: string, cameraId: string, span: Span): Promise<BackfillResult[]> {
    const { repo, settings } = this.deps;
    const target = await repo.targetOf(shipId, cameraId);
    if (!target) {
      this.deps.log.info({ shipId, cameraId }, 'backfill: an event’s video is not fetched: the camera is not recorded on shore');
      return [];
    }
    const org = await repo.orgSetting(target.orgId, await this.deps.orgs());
    const choice = backfillChoice(target.definition, org.definition);
    const runs = await repo.runs(cameraId, span.start);
    const done: BackfillResult[] = [];
    for (const part of uncovered(span, runs).filter((p) => p.end - p.start >= settings.minGapMs)) {
      if (this.closing.signal.aborted) break;
      const before = [...runs].reverse().find((r) => r.end <= part.start && !r.backfilled) ?? [...runs].reverse().find((r) => r.end <= part.start);
      const templateId = before?.templateId ?? 0;
      const asked = choice === 'ship' ? undefined : askedDefinition(choice, await this.deps.definitions(shipId), templateId);
      const result = await this.fill(shipId, target, part, { choice, templateId, asked });
      done.push(result);
      this.results.push(result);
      if (this.results.length > RESULTS_KEPT) this.results.splice(0, this.results.length - RESULTS_KEPT);
      if (result.outcome !== 'filled' && result.outcome !== 'nothing') break;
    }
    return done;
  }

  private async pass(shipId: string): Promise<BackfillResult[]> {
    const { repo, settings } = this.deps;
    const targets = await repo.targets(shipId);
    if (targets.length === 0) return [];
    const orgs = await this.deps.orgs();
    const done: BackfillResult[] = [];
    for (const target of targets) {
      if (this.closing.signal.aborted) break;
      const list = key(shipId, target.cameraId);
      const org = await repo.orgSetting(target.orgId, orgs);
      if (!org.enabled) {
        this.pending.delete(list);
        continue;
      }
      const choice = backfillChoice(target.definition, org.definition);
      const now = this.now;
      const runs = await repo.runs(target.cameraId, now - settings.lookbackMs);
      const gaps = refillableGaps(runs, settings).filter((g) => (this.quiet.get(`${list}\u0000${g.start}\u0000${g.end}`) ?? 0) <= now);
      this.pending.set(
        list,
        gaps.map((g) => ({ ...g, state: 'pending' })),
      );
      for (const gap of gaps) {
        if (this.closing.signal.aborted) break;
        const entry = this.pending.get(list)?.find((p) => p.start === gap.start && p.end === gap.end);
        if (entry) entry.state = 'running';
        // The shore recording's definition: that of the live recording before the gap.
        const before = [...runs].reverse().find((r) => r.end <= gap.start && !r.backfilled) ?? [...runs].reverse().find((r) => r.end <= gap.start);
        const templateId = before?.templateId ?? 0;
        const asked = choice === 'ship' ? undefined : askedDefinition(choice, await this.deps.definitions(shipId), templateId);
        const result = await this.fill(shipId, target, gap, { choice, templateId, asked });
        done.push(result);
        this.results.push(result);
        if (this.results.length > RESULTS_KEPT) this.results.splice(0, this.results.length - RESULTS_KEPT);
        if (result.outcome === 'budget') {
          // What was copied is in the recording now: the rest waits for the budget.
          if (entry) Object.assign(entry, { start: Math.max(entry.start, result.covered?.end ?? entry.start), state: 'pending', waitingFor: 'budget' });
          return done;
        }
        this.pending.set(
          list,
          (this.pending.get(list) ?? []).filter((p) => p !== entry),
        );
        // The ship had nothing for a gap that ended a while ago (camera off, deleted): not asked again for a while.
        if (result.outcome === 'nothing' && gap.end < now - settings.settleMs) this.quiet.set(`${list}\u0000${gap.start}\u0000${gap.end}`, now + settings.retryMs);
        // The link went (or the agent cannot): the rest waits for the next pass.
        if (result.outcome === 'offline' || result.outcome === 'failed' || result.outcome === 'unsupported') {
          this.pending.delete(list);
          return done;
        }
      }
    }
    return done;
  }

  /**
   * Copies the ship's files covering one gap — in the definition asked when the ship transcodes, else
   * as they are — into a new backfilled recording (a new one again where what the ship sent changes
   * definition: one recording is one definition), each with its definition measured.
   */
  private async fill(shipId: string, target: BackfillTarget, gap: Span, how: { choice: BackfillDefinition; templateId: number; asked: AskedDefinition | undefined }): Promise<BackfillResult> {
    const began = performance.now();
    const asked = how.asked && this.deps.transcodes(shipId) ? how.asked : undefined;
    const result: BackfillResult = {
      shipId,
      cameraId: target.cameraId,
      gap,
      outcome: 'filled',
      files: 0,
      fileBytes: 0,
      shipBytes: 0,
      receivedBytes: 0,
      covered: null,
      recordingId: null,
      ms: 0,
      choice: how.choice,
      asked: asked?.encode ?? null,
      transcodedFiles: 0,
    };
    const finish = (outcome: Outcome) => {
      result.outcome = outcome;
      result.ms = Math.round(performance.now() - began);
      if (result.files > 0) this.deps.log.info({ ...result }, 'backfill: refilled a gap of the shore recording from the ship');
      return result;
    };
    let open: OpenRecording | undefined;
    const close = async () => {
      if (!open) return;
      const done = open;
      open = undefined;
      result.recordingId ??= done.recording.id;
      await this.deps.store.closeRecording(done.recording.id, { definition: measured(done) });
    };
    try {
      const files = filesForGap(await this.list(shipId, target.cameraId, gap), gap);
      if (files.length === 0) return finish('nothing');
      let left = await this.deps.budgetLeft(shipId);
      for (const file of files) {
        if (expectedBytes(file, asked?.encode) > left) return finish('budget');
        const { bytes, sentBytes, start, end, encoded } = await this.fetch(shipId, target.cameraId, file, gap, asked?.encode);
        left -= bytes.length;
        result.receivedBytes += bytes.length;
        result.shipBytes += sentBytes;
        result.fileBytes += file.bytes;
        const media = wholeFragments(bytes);
        const definition = media && videoDefinition(media);
        if (!media || !definition) {
          this.deps.log.warn({ shipId, cameraId: target.cameraId, file: file.file }, 'backfill: a file from the ship is not whole fragmented MP4; left out');
          continue;
        }
        const transcoded = encoded !== undefined;
        if (open && (open.transcoded !== transcoded || open.width !== definition.width || open.height !== definition.height)) await close();
        open ??= {
          recording: await this.createRecording(shipId, target, transcoded && asked ? asked.model.id : how.templateId, start),
          seq: 0,
          transcoded,
          width: definition.width,
          height: definition.height,
          codec: definition.codec,
          bytes: 0,
          samples: 0,
          durationMs: 0,
        };
        await this.addFile(open.recording, open.seq, { start, end }, bytes, mimeFor(media.init));
        open.seq += 1;
        open.bytes += bytes.length;
        open.samples += media.samples;
        open.durationMs += definition.durationMs;
        result.files += 1;
        if (transcoded) result.transcodedFiles += 1;
        result.covered = { start: result.covered?.start ?? start, end };
      }
      return finish('filled');
    } catch (err) {
      const reason = err instanceof ShipAskError ? err.reason : undefined;
      if (reason === 'offline' || reason === 'timeout') return finish('offline');
      if (reason === 'unsupported') return finish('unsupported');
      this.deps.log.warn({ err, shipId, cameraId: target.cameraId }, 'backfill: refilling a gap failed');
      return finish('failed');
    } finally {
      await close();
    }
  }

  private list(shipId: string, cameraId: string, gap: Span): Promise<ShipSegmentFile[]> {
    return ask(this.deps.streams, {
      shipId,
      kind: 'backfill',
      request: (requestId) => ({ type: 'backfill.list', requestId, cameraId, start: gap.start, end: gap.end }),
      answer: (msg, reply) => {
        if (msg.type === 'backfill.segments') reply.done(msg.segments);
        else if (msg.type === 'backfill.refused') reply.fail('refused', `the ship refused to list its files: ${msg.message}`);
      },
      timeoutMs: this.deps.settings.askTimeoutMs,
      signal: this.closing.signal,
    });
  }

  /**
   * One file, or the part of it covering the gap (in `encode` when given and lower than the ship's
   * own): its bytes arrive as the stream's frames, then `backfill.sent` with their length, span
   * (none: the whole file, its own span) and the definition the ship transcoded them into (none:
   * its own bytes).
   */
  private fetch(
    shipId: string,
    cameraId: string,
    file: ShipSegmentFile,
    gap: Span,
    encode: EncodeSpec | undefined,
  ): Promise<{ bytes: Buffer; sentBytes: number; start: number; end: number; encoded: EncodeSpec | undefined }> {
    const chunks: Uint8Array[] = [];
    let received = 0;
    const part = file.start < gap.start || file.end > gap.end ? { from: gap.start, to: gap.end } : {};
    return ask(this.deps.streams, {
      shipId,
      kind: 'backfill',
      request: (streamId) => ({ type: 'backfill.fetch', streamId, cameraId, file: file.file, fileStart: file.start, ...part, ...(encode ? { encode } : {}) }),
      data: (payload) => {
        chunks.push(Uint8Array.from(payload));
        received += payload.length;
      },
      answer: (msg, reply) => {
        if (msg.type === 'backfill.failed') reply.fail('notFound', `the ship could not send ${file.file}: ${msg.message}`);
        else if (msg.type === 'backfill.sent') {
          if (msg.bytes === received) reply.done({ bytes: Buffer.concat(chunks), sentBytes: msg.bytes, start: msg.start ?? file.start, end: msg.end ?? file.end, encoded: msg.encoded });
          else reply.error(new Error(`${file.file}: the ship sent ${msg.bytes} bytes, ${received} arrived`));
        }
      },
      timeoutMs: this.deps.settings.fetchTimeoutMs,
      signal: this.closing.signal,
    });
  }

  private async createRecording(shipId: string, target: BackfillTarget, templateId: number, startMs: number): Promise<NewRecording> {
    // templateId: the model the ship transcoded into, or for the ship's own bytes the shore recording's before the gap.
    const recording: NewRecording = { id: randomUUID(), cameraId: target.cameraId, shipId, recordConfigId: target.configId, templateId, startMs, backfilled: true };
    // The folder and its description first, as the recorder does: start-up recovery can index it from them.
    await mkdir(join(this.deps.root, recording.id), { recursive: true });
    await writeFile(join(this.deps.root, recording.id, RECORDING_META_FILE), JSON.stringify(recording));
    await this.deps.store.createRecording(recording);
    return recording;
  }

  /** Writes a copied file under the recorder's names (durable before it is indexed) and indexes it. */
  private async addFile(recording: NewRecording, seq: number, file: Span, bytes: Buffer, mime: string): Promise<void> {
    const folder = join(this.deps.root, recording.id);
    const partial = join(folder, partialFileName(seq, file.start));
    const name = segmentFileName(seq, file.start, file.end);
    await writeFile(partial, bytes, { flush: true });
    await rename(partial, join(folder, name));
    await syncFolder(folder);
    const relative = join(recording.id, name);
    await this.deps.shared?.upload(this.deps.root, relative).catch((err: unknown) => this.deps.log.warn({ err, file: relative }, 'backfill: copying a segment to the shared store failed; it stays on this instance only'));
    await this.deps.store.addSegment({ id: `${recording.id}-${seq}`, recordingId: recording.id, seq, startMs: file.start, endMs: file.end, bytes: bytes.length, file: relative, mime });
  }
}

import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { CODES, GAP_CAUSES, type GapCause, type RecordedSpan, type RecordingGap, VOD_MAX_SPANS, type VodQueryResult, normalizeSpans } from '@ship-cctv/protocol';
import { type LinkStreams, ask } from '../../core/ship-link/index.ts';
import { ApiError, badRequest } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import type { FleetService } from '../fleet/index.ts';
import { SpanCache, type SpanCacheOptions, clipGaps, clipSpans } from './span-cache.ts';

export interface VodServiceOptions {
  /** How long the ship has to answer a query (a VSAT round trip is ~0.6 s; FleetBroadband can queue for seconds). */
  timeoutMs: number;
  /**
   * Only times this far in the past are taken as settled: the ship indexes what it records a little
   * later, and its clock may run ahead of shore's.
   */
  settleMs: number;
  /** Longest range one query may ask for. */
  maxRangeMs: number;
  /** Most spans the ship puts in one answer (the agent-link schema's bound): a full answer may have been cut short. */
  maxSpansPerAnswer: number;
  cache?: Partial<SpanCacheOptions>;
}

export const VOD_DEFAULTS: VodServiceOptions = { timeoutMs: 15_000, settleMs: 120_000, maxRangeMs: 31 * 24 * 3_600_000, maxSpansPerAnswer: VOD_MAX_SPANS };

/** The ship's answer: its spans, and how far they are complete (a full answer may have been cut short). */
interface Answer {
  spans: RecordedSpan[];
  /** The gaps with the causes the ship gave (none from an agent that does not say). */
  gaps: RecordingGap[];
  knownUntil: number;
}

/** The ship's causes the shore knows; any other (a newer agent's) reads as unknown. */
const SHIP_CAUSES = new Set<string>(GAP_CAUSES);
const shipCause = (cause: string): GapCause => (SHIP_CAUSES.has(cause) ? (cause as GapCause) : 'unknown');

/**
 * The gaps of [start, until) between `spans`, each cut by the causes the ship gave; where it gave
 * none (an older agent, or a time it did not cover) the cause is unknown.
 */
export function gapsWithCauses(spans: readonly RecordedSpan[], start: number, until: number, said: readonly RecordingGap[]): RecordingGap[] {
  const out: RecordingGap[] = [];
  let from = start;
  const holes: RecordedSpan[] = [];
  for (const s of normalizeSpans(spans)) {
    if (s.start > from) holes.push({ start: from, end: Math.min(s.start, until) });
    from = Math.max(from, s.end);
  }
  if (from < until) holes.push({ start: from, end: until });
  const causes = [...said].sort((a, b) => a.start - b.start);
  for (const hole of holes.filter((h) => h.end > h.start)) {
    let t = hole.start;
    for (const g of clipGaps(causes, hole.start, hole.end)) {
      if (g.start > t) out.push({ start: t, end: g.start, cause: 'unknown' });
      if (g.end > t) out.push({ start: Math.max(t, g.start), end: g.end, cause: g.cause });
      t = Math.max(t, g.end);
    }
    if (t < hole.end) out.push({ start: t, end: hole.end, cause: 'unknown' });
  }
  return out;
}

/**
 * Which times the ship recorder holds for a camera (`vod.query` → `vod.result` over the agent link),
 * answered from shore's cache where it can: a range in the past is asked of the ship once. Each
 * query is a request of kind playback on the ship's link (ask(): here, or through the ship's
 * owner): only that ship's answer naming it reaches it.
 */
export class VodService {
  readonly cache: SpanCache;
  private readonly opts: VodServiceOptions;
  /** Queries waiting for the ship fail on shutdown. */
  private readonly closing = new AbortController();
  /** Identical questions in flight share one query over the link. */
  private readonly inFlight = new Map<string, Promise<Answer>>();
  /** Queries sent over the link (for tests and introspection). */
  queriesSent = 0;

  constructor(
    private readonly fleet: FleetService,
    private readonly streams: LinkStreams,
    private readonly log: FastifyBaseLogger,
    opts: Partial<VodServiceOptions> = {},
  ) {
    this.opts = { ...VOD_DEFAULTS, ...opts };
    this.cache = new SpanCache(this.opts.cache);
    // Every query waiting for a ship listens to it: as many as are asked at once, not a leak.
    setMaxListeners(0, this.closing.signal);
  }

  /** 400 bad range, 404 unknown ship or camera, 403 another organisation's ship; nothing cached and the ship not answering: a ShipAskError (503 offline, timeout, refused). */
  async query(access: Access, shipId: string, cameraId: string, start: number, end: number): Promise<VodQueryResult> {
    if (!(start < end)) throw badRequest(`start (${start}) must be before end (${end})`);
    if (end - start > this.opts.maxRangeMs) {
      throw badRequest(`a query covers at most ${Math.round(this.opts.maxRangeMs / 86_400_000)} days; ask for a shorter range`);
    }
    await this.fleet.requireCameraOfShip(access, shipId, cameraId);

    const key = `${shipId}/${cameraId}`;
    const askedAt = Date.now();
    const known = this.cache.lookup(key, start, end, askedAt);
    // Gaps run up to now at most: later times are not a gap yet.
    const result = (spans: RecordedSpan[], said: RecordingGap[], until: number, cached: boolean): VodQueryResult => ({
      shipId,
      cameraId,
      start,
      end,
      spans,
      gaps: gapsWithCauses(spans, start, Math.min(until, askedAt), said),
      cached,
    });
    if (known.knownUntil >= end) return result(known.spans, known.gaps, end, true);

    // Only what shore does not know yet crosses the link.
    const from = known.knownUntil;
    const asked = await this.askOnce(shipId, cameraId, from, end);
    const settled = Math.min(end, asked.knownUntil, askedAt - this.opts.settleMs);
    if (settled > from) this.cache.store(key, from, settled, asked.spans, Date.now(), asked.gaps);
    return result(normalizeSpans([...known.spans, ...asked.spans]), [...known.gaps, ...asked.gaps], asked.knownUntil, false);
  }

  /** What shore knows of the ship recorder's spans in [start, end) without asking the ship: the times it answered for, and what it held there. */
  known(shipId: string, cameraId: string, start: number, end: number): { covered: RecordedSpan[]; spans: RecordedSpan[] } {
    return this.cache.coverage(`${shipId}/${cameraId}`, start, end, Date.now());
  }

  private askOnce(shipId: string, cameraId: string, start: number, end: number): Promise<Answer> {
    const key = `${shipId}/${cameraId}/${start}/${end}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const promise = this.askShip(shipId, cameraId, start, end).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private async askShip(shipId: string, cameraId: string, start: number, end: number): Promise<Answer> {
    const { spans, gaps } = await ask<'playback', { spans: RecordedSpan[]; gaps: RecordingGap[] }>(this.streams, {
      shipId,
      kind: 'playback',
      request: (requestId) => {
        this.queriesSent++;
        return { type: 'vod.query', requestId, cameraId, start, end };
      },
      answer: (msg, reply) => {
        if (msg.type === 'vod.failed') return reply.fail('refused', `the ship's recorder could not answer: ${msg.message}`);
        if (msg.type !== 'vod.result') return;
        if (msg.cameraId !== cameraId) {
          this.log.warn({ shipId, requestId: msg.requestId, cameraId: msg.cameraId }, 'vod.result for another camera ignored');
          return;
        }
        reply.done({ spans: msg.spans, gaps: (msg.gaps ?? []).map((g) => ({ start: g.start, end: g.end, cause: shipCause(g.cause) })) });
      },
      timeoutMs: this.opts.timeoutMs,
      signal: this.closing.signal,
    });
    return {
      spans: clipSpans(normalizeSpans(spans), start, end),
      gaps: clipGaps(gaps, start, end),
      knownUntil: spans.length >= this.opts.maxSpansPerAnswer ? spans.reduce((t, s) => Math.max(t, s.end), start) : end,
    };
  }

  close(): void {
    this.closing.abort(new ApiError(CODES.unavailable, 'the server is shutting down'));
  }
}

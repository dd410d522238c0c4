/**
 * Backfill end to end: a real ship agent (a URL camera recorded into segment files) behind the link
 * emulator, a real shore recording what an operator watches live. The link is cut while the shore
 * records; when it returns, the shore refills the gap in its recording with the ship recorder's own
 * files, copied byte for byte, and the bytes that crossed for it are the files' bytes and a little
 * framing; and no gap in the span is left without a cause. The link is cut for a minute.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport, RecordQueryPage, ShoreMessageOf } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { Fmp4Splitter } from '@ship-cctv/media';
import { LinkShaper, PROFILES } from '@ship-cctv/simulator';
import { ShipAskError, ask } from '../../../apps/server/src/core/ship-link/index.ts';
import type { BackfillResult } from '../../../apps/server/src/modules/backfill/index.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { makeCameraFile } from '../../../apps/agent/test/recorder/helpers.ts';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, signIn, startShore } from './helpers/shore.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const CUT_MS = 60_000;
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const tmp = tempDir('backfill-');

type Row = { id: string; start: number; end: number; backfilled: boolean };
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('backfill: a gap in the shore recording refilled from the ship after a cut link', () => {
  let shore: Shore;
  let shaper: LinkShaper;
  let agent: ShipAgent;
  let viewer: MediaClient;
  let token: string;

  const recordings = async (): Promise<Row[]> => {
    const res = await shore.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/200', headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA } });
    return res
      .json<{ data: RecordQueryPage }>()
      .data.records.map(({ id, start, end, backfilled }) => ({ id, start, end, backfilled }))
      .sort((a, b) => a.start - b.start);
  };

  beforeAll(async () => {
    const camera = await makeCameraFile(join(tmp.dir, 'deck.mp4'), { seconds: 4, gop: 10 });
    shore = await startShore({
      recorder: { settings: { dir: join(tmp.dir, 'shore'), segmentSeconds: 2 } },
      // Looked at every second, and a second after the link returns, rather than every minute.
      backfill: { settings: { everyMs: 1_000, afterOnlineMs: 1_000, minGapMs: 2_000 } },
    });
    shaper = new LinkShaper({ target: { port: shore.port }, profile: PROFILES.FOURTHG, loss: false, dropAfterMs: 500 });
    await shaper.listen();
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key: await shore.app.agentKeys.issue(SHIP), cameras: [{ cameraId: CAMERA, source: camera }] },
      { current: () => report, onChange: () => () => undefined },
      { minBackoffMs: 200, maxBackoffMs: 500, silenceTimeoutMs: 2_000, recorder: { dataDir: join(tmp.dir, 'ship'), segments: { segmentSeconds: 2 } } },
    );
    agent.start();
    token = await signIn(shore.app);
    viewer = await MediaClient.open(shore.port, token);
  });
  afterAll(async () => {
    viewer?.ws.close();
    await agent?.stop();
    await shaper?.close();
    await shore?.close();
    tmp.remove();
  });

  it('covers the cut with the ship recorder’s own files, and what crossed for them is their bytes', async () => {
    viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    // The shore records while the operator watches: a recording with a few segments before the cut.
    await expect.poll(async () => (await recordings()).reduce((n, r) => n + r.end - r.start, 0), { timeout: 30_000, interval: 250 }).toBeGreaterThan(4_000);

    const cutAt = Date.now();
    shaper.setOutage(true);
    await expect.poll(() => shore.app.agents.get(SHIP) === undefined, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => Date.now() - cutAt, { timeout: CUT_MS + 1_000, interval: 200 }).toBeGreaterThanOrEqual(CUT_MS);
    const backfillBefore = shore.app.metrics.linkBytesOf(SHIP, 'up', 'backfill') + shore.app.metrics.linkBytesOf(SHIP, 'down', 'backfill');
    shaper.setOutage(false);
    const backAt = Date.now();

    // The viewer is still there: live resumes as a new recording, and the gap before it is refilled.
    const filled = () => shore.app.backfill.results.filter((r): r is BackfillResult => r.cameraId === CAMERA && r.outcome === 'filled' && r.files > 0);
    const gapOf = async () => {
      const rows = await recordings();
      const live = rows.filter((r) => !r.backfilled);
      const before = live.filter((r) => r.end <= backAt).at(-1);
      const after = live.find((r) => r.start >= cutAt);
      return before && after ? { start: before.end, end: after.start } : undefined;
    };
    /** The longest stretch of the gap no recording (live or backfilled) covers. */
    const uncovered = async (gap: { start: number; end: number }) => {
      const rows = (await recordings()).filter((r) => r.end > gap.start && r.start < gap.end);
      let at = gap.start;
      let longest = 0;
      for (const r of rows) {
        longest = Math.max(longest, r.start - at);
        at = Math.max(at, r.end);
      }
      return Math.max(longest, gap.end - at);
    };
    await expect.poll(gapOf, { timeout: 20_000, interval: 250 }).toBeDefined();
    const gap = (await gapOf())!;
    await expect.poll(async () => await uncovered(gap), { timeout: 120_000, interval: 500 }).toBeLessThan(250);
    const doneAt = Date.now();

    // Copied as they are: each backfilled segment is a file of the ship recorder, byte for byte, or
    // (a file reaching past the gap) its init segment and some of its fragments, unchanged.
    const shipFiles = (agent.recorder.recording(CAMERA)?.segmentFiles?.(gap.start - 10_000, gap.end + 10_000) ?? []).map((f) => readFileSync(f.path));
    const shipSums = new Set(shipFiles.map((f) => sha(f)));
    const backfilled = (await recordings()).filter((r) => r.backfilled);
    expect(backfilled.length).toBeGreaterThanOrEqual(1);
    let segments = 0;
    let whole = 0;
    for (const r of backfilled) {
      for (const s of await shore.app.recordings.segments(r.id)) {
        segments += 1;
        const copy = readFileSync(join(shore.app.recorder.root, s.file));
        if (shipSums.has(sha(copy))) {
          whole += 1;
          continue;
        }
        const [init, ...fragments] = new Fmp4Splitter().push(copy);
        const from = shipFiles.find((f) => init && f.subarray(0, init.data.length).equals(init.data) && fragments.every((u) => f.indexOf(u.data) > 0));
        expect(from, `${s.file} is a part of a ship file`).toBeDefined();
      }
    }
    expect(whole).toBeGreaterThanOrEqual(1);
    expect(segments).toBeGreaterThanOrEqual(Math.floor((gap.end - gap.start) / 2_000) - 1);

    // Bytes: what crossed under `backfill` against the ship's own bytes of what it sent for the gap.
    const results = filled();
    const shipBytes = results.reduce((n, r) => n + r.shipBytes, 0);
    expect(results.reduce((n, r) => n + r.receivedBytes, 0)).toBe(shipBytes);
    const crossed = shore.app.metrics.linkBytesOf(SHIP, 'up', 'backfill') + shore.app.metrics.linkBytesOf(SHIP, 'down', 'backfill') - backfillBefore;
    expect(crossed).toBeGreaterThanOrEqual(shipBytes);
    expect(crossed).toBeLessThanOrEqual(1.05 * shipBytes);
    // Nothing is left waiting once the gap is whole.
    await expect.poll(() => shore.app.backfill.pendingBackfill(SHIP, CAMERA), { timeout: 5_000 }).toEqual([]);
    // And whatever gap the recording query still finds from the first recording on (before it
    // nobody watched, which no cause names) says why.
    const firstStart = (await recordings())[0]!.start;
    const asked = await shore.app.inject({
      method: 'POST',
      url: '/api/v1/cctv/record/complexQuery/1/200',
      headers: { 'cas-jwt': token },
      payload: { cameraId: CAMERA, start: firstStart, end: Date.now() },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const left = asked.json<{ data: RecordQueryPage }>().data.gaps.flatMap((c) => c.gaps);
    expect(left.filter((g) => g.cause === 'unknown')).toEqual([]);

    console.log(
      `[backfill] gap ${((gap.end - gap.start) / 1000).toFixed(1)} s (link cut ${(CUT_MS / 1000).toFixed(0)} s); ` +
        `covered ${((doneAt - backAt) / 1000).toFixed(1)} s after the link returned (copying ${results.reduce((n, r) => n + r.ms, 0)} ms); ` +
        `${segments} files (${whole} whole), ${shipBytes} B of the ship's segments for the gap (whole files: ${results.reduce((n, r) => n + r.fileBytes, 0)} B), ` +
        `${crossed} B crossed (${(crossed / shipBytes).toFixed(4)}×); gaps left in the span: ${left.length}`,
    );
  }, 240_000);

  it('the ship sends only files of its own index, and says why it will not', async () => {
    const question = (request: (id: number) => ShoreMessageOf<'backfill'>) =>
      ask<'backfill', string>(shore.app.linkStreams, {
        shipId: SHIP,
        kind: 'backfill',
        request,
        answer: (msg, reply) => {
          if (msg.type === 'backfill.refused' || msg.type === 'backfill.failed') reply.fail('refused', msg.message);
          else reply.done(msg.type);
        },
        timeoutMs: 10_000,
      }).catch((err: unknown) => (err instanceof ShipAskError ? err.message : String(err)));
    await expect.poll(() => shore.app.agents.get(SHIP)?.ready, { timeout: 10_000 }).toBe(true);
    const now = Date.now();
    expect(await question((requestId) => ({ type: 'backfill.list', requestId, cameraId: 'S1001-C09-9', start: now - 60_000, end: now }))).toMatch(/no recorded files/);
    expect(await question((requestId) => ({ type: 'backfill.list', requestId, cameraId: CAMERA, start: now, end: now - 60_000 }))).toMatch(/bad time range/);
    expect(await question((streamId) => ({ type: 'backfill.fetch', streamId, cameraId: CAMERA, file: '..' }))).toMatch(/has no segment file \.\./);
    expect(await question((streamId) => ({ type: 'backfill.fetch', streamId, cameraId: CAMERA, file: 'index.json' }))).toMatch(/has no segment file index\.json/);
  });
});

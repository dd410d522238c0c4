/**
 * Backfill in a lower definition, end to end: a real ship agent recording a 640×360 camera into
 * segment files behind the link emulator, a real shore recording what an operator watches live, and
 * the organisation's backfill definition set to `lowest` (320×180 at 5 frames a second, 150 kbit/s).
 * The link is cut for 12 s while the shore records; when it returns, the ship transcodes the
 * span into that definition and the shore writes it into its index as backfilled, in that
 * definition; what crossed is fewer bytes than a copy of the ship's own files for the same span
 * (asked over the same link afterwards), and the refilled files play at the size asked.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EncodeSpec, LinkReport, RecordQueryPage, ShipSegmentFile } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { LinkShaper, PROFILES } from '@ship-cctv/simulator';
import { ask } from '../../../apps/server/src/core/ship-link/index.ts';
import type { BackfillResult } from '../../../apps/server/src/modules/backfill/index.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { makeCameraFile } from '../../../apps/agent/test/recorder/helpers.ts';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, signIn, startShore } from './helpers/shore.ts';

const run = promisify(execFile);
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
// Long enough for several of the ship's 2 s files to be refilled, short enough for the test run:
// the minute-long cut and its figures are the benchmark's (bench/backfill-definition.bench.ts).
const CUT_MS = 12_000;
const LOWEST: EncodeSpec = { width: 320, height: 180, frameRate: 5, bitrateKbps: 150, codec: 'h264' };
const SATELLITE: EncodeSpec = { width: 320, height: 180, frameRate: 3, bitrateKbps: 32, codec: 'h264' };
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const tmp = tempDir('backfill-definition-');

type Row = RecordQueryPage['records'][number];

describe('backfill in a lower definition: a gap refilled in the organisation’s choice after a cut link', () => {
  let shore: Shore;
  let shaper: LinkShaper;
  let agent: ShipAgent;
  let viewer: MediaClient;
  let token: string;

  const recordings = async (): Promise<Row[]> => {
    const res = await shore.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/200', headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA } });
    return res.json<{ data: RecordQueryPage }>().data.records.sort((a, b) => a.start - b.start);
  };
  const backfillBytes = () => shore.app.metrics.linkBytesOf(SHIP, 'up', 'backfill') + shore.app.metrics.linkBytesOf(SHIP, 'down', 'backfill');

  beforeAll(async () => {
    // A camera of the shore's standard size, sent (and recorded on the ship) at the bits it comes with.
    const camera = await makeCameraFile(join(tmp.dir, 'deck.mp4'), { width: 640, height: 360, seconds: 4, gop: 10 });
    shore = await startShore({
      recorder: { settings: { dir: join(tmp.dir, 'shore'), segmentSeconds: 2 } },
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

  it('refills the cut transcoded into the lower definition, fewer bytes than a copy, playable at the size asked', async () => {
    const orgId = (await shore.app.recordings.cameraInfo(CAMERA))!.orgId;
    const set = await shore.app.inject({ method: 'PUT', url: `/api/v1/cctv/record/backfill/org/${orgId}`, headers: { 'cas-jwt': token }, payload: { definition: 'lowest' } });
    expect(set.json()).toMatchObject({ data: { definition: 'lowest' } });

    viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await expect.poll(async () => (await recordings()).reduce((n, r) => n + r.end - r.start, 0), { timeout: 30_000, interval: 250 }).toBeGreaterThan(4_000);

    const cutAt = Date.now();
    shaper.setOutage(true);
    await expect.poll(() => shore.app.agents.get(SHIP) === undefined, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => Date.now() - cutAt, { timeout: CUT_MS + 1_000, interval: 200 }).toBeGreaterThanOrEqual(CUT_MS);
    const before = backfillBytes();
    shaper.setOutage(false);
    const backAt = Date.now();

    const gapOf = async () => {
      const live = (await recordings()).filter((r) => !r.backfilled);
      const last = live.filter((r) => r.end <= backAt).at(-1);
      const next = live.find((r) => r.start >= cutAt);
      return last && next ? { start: last.end, end: next.start } : undefined;
    };
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
    await expect.poll(async () => await uncovered(gap), { timeout: 180_000, interval: 500 }).toBeLessThan(250);
    const doneAt = Date.now();
    await expect.poll(() => shore.app.backfill.pendingBackfill(SHIP, CAMERA), { timeout: 5_000 }).toEqual([]);
    const lowerCrossed = backfillBytes() - before;

    // What the shore asked and got: the organisation's `lowest`, transcoded by the ship.
    const results = shore.app.backfill.results.filter((r): r is BackfillResult => r.cameraId === CAMERA && r.outcome === 'filled' && r.files > 0);
    expect(results.length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect(r).toMatchObject({ choice: 'lowest', asked: LOWEST });
    const files = results.reduce((n, r) => n + r.files, 0);
    expect(results.reduce((n, r) => n + r.transcodedFiles, 0)).toBe(files);
    const shipBytes = results.reduce((n, r) => n + r.shipBytes, 0);
    expect(results.reduce((n, r) => n + r.receivedBytes, 0)).toBe(shipBytes);

    // The index keeps the definition: template 5 (the lowest), 320×180, about 5 pictures a second, transcoded.
    const backfilled = (await recordings()).filter((r) => r.backfilled);
    expect(backfilled.length).toBeGreaterThanOrEqual(1);
    for (const r of backfilled) {
      expect(r).toMatchObject({ templateId: 5, definition: { width: 320, height: 180, transcoded: true } });
      expect(r.definition!.frameRate).toBeGreaterThan(4);
      expect(r.definition!.frameRate).toBeLessThan(6);
    }
    // Each refilled file plays: ffprobe sees H.264 at 320×180, and ffmpeg decodes every picture without an error.
    const segments = (await Promise.all(backfilled.map((r) => shore.app.recordings.segments(r.id)))).flat();
    expect(segments.length).toBeGreaterThanOrEqual(files);
    for (const s of segments) {
      const path = join(shore.app.recorder.root, s.file);
      const probe = JSON.parse((await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', path])).stdout) as {
        streams: { codec_name: string; width: number; height: number }[];
      };
      expect(probe.streams[0]).toEqual({ codec_name: 'h264', width: 320, height: 180 });
      const decoded = await run('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-']);
      expect(decoded.stderr).toBe('');
    }

    // The same span asked again over the same link: as a copy of the ship's files, and at the satellite tier.
    const shipFiles: ShipSegmentFile[] = (agent.recorder.recording(CAMERA)?.segmentFiles?.(gap.start, gap.end) ?? []).map(({ file, start, end, bytes }) => ({ file, start, end, bytes }));
    expect(shipFiles.length).toBeGreaterThanOrEqual(files - 1);
    const fetchAll = async (encode: EncodeSpec | undefined) => {
      const from = backfillBytes();
      let sent = 0;
      for (const f of shipFiles) {
        const part = f.start < gap.start || f.end > gap.end ? { from: gap.start, to: gap.end } : {};
        sent += await ask<'backfill', number>(shore.app.linkStreams, {
          shipId: SHIP,
          kind: 'backfill',
          request: (streamId) => ({ type: 'backfill.fetch', streamId, cameraId: CAMERA, file: f.file, fileStart: f.start, ...part, ...(encode ? { encode } : {}) }),
          answer: (msg, reply) => {
            if (msg.type === 'backfill.sent') reply.done(msg.bytes);
            else if (msg.type === 'backfill.failed') reply.fail('refused', msg.message);
          },
          timeoutMs: 60_000,
        });
      }
      return { sent, crossed: backfillBytes() - from };
    };
    const copy = await fetchAll(undefined);
    const satellite = await fetchAll(SATELLITE);
    expect(lowerCrossed).toBeLessThan(copy.crossed);
    expect(satellite.crossed).toBeLessThan(lowerCrossed);

    console.log(
      `[backfill-definition] gap ${((gap.end - gap.start) / 1000).toFixed(1)} s (link cut ${CUT_MS / 1000} s); covered ${((doneAt - backAt) / 1000).toFixed(1)} s after the link returned ` +
        `(ship and shore busy ${results.reduce((n, r) => n + r.ms, 0)} ms); ${files} files. Bytes crossed for the span: copy of the ship's files ${copy.crossed} B ` +
        `(${copy.sent} B of media), lowest 320×180@5/150k ${lowerCrossed} B (${shipBytes} B; ${(lowerCrossed / copy.crossed).toFixed(3)}× the copy), ` +
        `satellite 320×180@3/32k ${satellite.crossed} B (${satellite.sent} B; ${(satellite.crossed / copy.crossed).toFixed(3)}× the copy)`,
    );
  }, 300_000);
});

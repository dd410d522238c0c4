/**
 * Pictures benchmark: what a picture and a thumbnail cost over the ship link at the picture
 * config (720: 1280×720), how long 24 ship thumbnails take to show over FBB and VSAT, and a
 * 10-minute Iridium outage while the ship takes a picture a minute (every picture must arrive
 * after the link returns, none twice; the bytes that crossed against the pictures' sizes), and 24
 * simulated hours of a snapshot task at 0.25 h per shot across a 6-hour outage on the ship's
 * injected clock (every shot taken once, all on shore after).
 * Prints figures; not part of npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/pictures.bench.ts [--scale=10] [--parts=sizes,list,outage,tasks]
 *
 * --scale divides the outage's clock (default 10: a "minute" lasts 6 s, the outage 60 s; --scale=1
 * runs the real 10 minutes). Everything runs here: a shore server (embedded database), one agent
 * with the synthetic camera behind a LinkShaper, on loopback.
 */
import { rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type LinkReport, type PicturePage, type ShipPicList, type SnapshotAnswer, type SnapshotTaskStatus, TOKEN_HEADER } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES, withOverrides, type LinkProfile } from '@ship-cctv/simulator';
import { shootSynthetic } from '@ship-cctv/simulator';
import { PictureStore } from '../../../apps/agent/src/pictures/picture-store.ts';
import { fontsFor } from '@ship-cctv/simulator';
import { scrapeMetrics, signIn, startShore } from '../test/helpers/shore.ts';

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SCALE = Math.max(1, Number(argOf('scale') ?? 10));
const PARTS = new Set((argOf('parts') ?? 'sizes,list,outage,tasks').split(','));
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const CHANNEL = 'S1001-C01';
const SIZE = { width: 1280, height: 720 };
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const shore = await startShore();
  const key = await shore.app.agentKeys.issue(SHIP);
  const token = await signIn(shore.app);
  const post = (url: string, payload?: object) => shore.app.inject({ method: 'POST', url, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });
  const upPictures = async () => Number(/shipcctv_link_bytes_total\{[^}]*direction="up"[^}]*purpose="pictures"[^}]*\} (\d+)/.exec(await scrapeMetrics(shore.app))?.[1] ?? 0);
  const steady = (p: LinkProfile): LinkProfile => withOverrides(p, { jitterMs: 0, outages: undefined });
  const shaper = new LinkShaper({ profile: steady(PROFILES.VSAT), target: { port: shore.port } });
  await shaper.listen();
  const dataDir = mkdtempSync(join(tmpdir(), 'pictures-bench-'));
  const report: LinkReport = { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
  let agent: ShipAgent | undefined;
  /** The ship's clock for the tasks part (real time elsewhere). */
  let shipNow: (() => number) | undefined;
  const startAgent = async () => {
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge 驾驶台' }] },
      { current: () => report, onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()], minBackoffMs: 500, maxBackoffMs: 2_000, recorder: { dataDir }, pictures: { now: () => (shipNow ?? Date.now)(), taskTickMs: 3_600_000 } },
    );
    agent.start();
    while (!shore.app.agents.get(SHIP)?.ready) await sleep(50);
    return agent;
  };

  try {
    if (PARTS.has('sizes')) {
      // Ten moments of the synthetic camera (the moving square and the clock change the picture).
      const sizes: number[] = [];
      const thumbs: number[] = [];
      for (let i = 0; i < 10; i++) {
        const shot = await shootSynthetic('Bridge 驾驶台', Date.now() - i * 7_777, SIZE, fontsFor('Bridge 驾驶台'));
        sizes.push(shot.jpeg.length);
        thumbs.push(shot.thumb.length);
      }
      const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      await startAgent();
      const before = await upPictures();
      const asked = performance.now();
      const res = await post(`/cctvv3-server/v3/snapshot/requestPro/${SHIP}/${CHANNEL}/${CAMERA}/720/live`);
      const { pictureId } = res.json<{ data: SnapshotAnswer }>().data;
      await shore.app.pictures.waitFor(pictureId, 60_000);
      const ms = performance.now() - asked;
      const crossed = (await upPictures()) - before;
      const stored = await shore.app.pictures.index.get(pictureId);
      console.log(`[sizes] picture config 720 (1280×720 JPEG): ${kb(avg(sizes))} on average (${kb(Math.min(...sizes))}–${kb(Math.max(...sizes))}); thumbnail 160 px: ${kb(avg(thumbs))}`);
      console.log(`[sizes] snapshot now over VSAT: ${kb(stored?.bytes ?? 0)} picture, ${kb(crossed)} crossed the link (${(crossed / (stored?.bytes ?? 1)).toFixed(3)}×), on shore ${Math.round(ms)} ms after the request`);
      await agent?.stop();
    }

    if (PARTS.has('list')) {
      // 24 pictures on the ship, taken over the last day.
      const store = new PictureStore(join(dataDir, 'pictures'));
      const t0 = Date.now() - 86_400_000;
      for (let i = 0; i < 24; i++) {
        const at = t0 + i * 3_600_000;
        const shot = await shootSynthetic('Bridge 驾驶台', at, SIZE, fontsFor('Bridge 驾驶台'));
        store.add({ meta: { pictureId: `bench-list-${String(i).padStart(4, '0')}-${Date.now()}`, cameraId: CAMERA, time: at, width: shot.width, height: shot.height, origin: 'task' }, jpeg: shot.jpeg, thumb: shot.thumb });
      }
      for (const name of ['FBB', 'VSAT'] as const) {
        shaper.setProfile(steady(PROFILES[name]));
        await startAgent();
        await sleep(1_000);
        const runs: number[] = [];
        let bytes = 0;
        for (let r = 0; r < 3; r++) {
          const asked = performance.now();
          const res = await post(`/api/v1/cctv-server/v3/getPicList/${SHIP}`, { cameraId: CAMERA, from: t0 - 1, to: t0 + 25 * 3_600_000, limit: 24 });
          runs.push(performance.now() - asked);
          const list = res.json<{ data: ShipPicList }>().data;
          bytes = list.linkBytes;
          if (list.pictures.length < 24) throw new Error(`only ${list.pictures.length} pictures listed`);
        }
        runs.sort((a, b) => a - b);
        console.log(`[list] 24 ship thumbnails over ${name}: ${Math.round(runs[1] ?? 0)} ms median of 3 (${runs.map(Math.round).join(', ')}), ${kb(bytes)} over the link (${kb(bytes / 24)} per entry)`);
        await agent?.stop();
      }
    }

    if (PARTS.has('outage')) {
      const minute = 60_000 / SCALE;
      shaper.setProfile(steady(PROFILES.IRIDIUM));
      const a = await startAgent();
      const before = await upPictures();
      const ids: string[] = [];
      const sizes = new Map<string, number>();
      const shoot = async (n: number) => {
        const id = `bench-outage-${String(n).padStart(3, '0')}-${Date.now()}`;
        // The ship's own schedule (a snapshot task): no shore request, so it goes on during the outage.
        const picture = await a.pictures.take({ type: 'pictures.take', streamId: 0, pictureId: id, cameraId: CAMERA, ...SIZE, origin: 'task' });
        if (picture) {
          ids.push(id);
          sizes.set(id, picture.bytes);
        }
      };
      // 2 minutes up, 10 down, 3 up again: a picture every minute throughout.
      const total = 15;
      const outageFrom = 2;
      const outageTo = 12;
      const started = performance.now();
      for (let m = 0; m < total; m++) {
        if (m === outageFrom) shaper.setOutage(true);
        if (m === outageTo) shaper.setOutage(false);
        await shoot(m);
        await sleep(minute);
      }
      const backAt = started + outageTo * minute;
      const waitUntil = performance.now() + 20 * minute;
      while (performance.now() < waitUntil) {
        const held = await shore.app.pictures.index.held(ids);
        if (held.size === ids.length) break;
        await sleep(500);
      }
      const allIn = performance.now();
      const page = (await post('/api/v1/cctv/snapshot/complexQuery/1/200', { cameraId: CAMERA, origin: 'task' })).json<{ data: PicturePage }>().data;
      const arrived = page.pictures.filter((p) => ids.includes(p.id));
      const distinct = new Set(arrived.map((p) => p.id));
      const sum = [...sizes.values()].reduce((x, y) => x + y, 0);
      const crossed = (await upPictures()) - before;
      console.log(
        `[outage] Iridium, ${total} pictures (one a minute, ×${SCALE} faster), link down minutes ${outageFrom}–${outageTo}: ${distinct.size}/${ids.length} arrived, ` +
          `${arrived.length - distinct.size} twice; last one on shore ${((allIn - backAt) / 1000).toFixed(1)} s after the link returned; ` +
          `${kb(crossed)} crossed for ${kb(sum)} of pictures (${(crossed / sum).toFixed(3)}×)`,
      );
      await a.stop();
    }
    if (PARTS.has('tasks')) {
      shaper.setProfile(steady(PROFILES.FBB));
      let clock = Date.now();
      shipNow = () => clock;
      const a = await startAgent();
      const start = Date.now() + 60_000;
      const quarter = 15 * 60_000;
      const res = await post('/api/v1/cctv-server/v3/submitTask', { shipId: SHIP, channelIds: [CHANNEL], rateHours: 0.25, start, end: start + 24 * 3_600_000, templateId: 720 });
      const task = res.json<{ data: SnapshotTaskStatus }>().data;
      while (!a.pictures.tasks.tasks.some((t) => t.taskId === task.id)) await sleep(50);
      const before = await upPictures();
      const started = performance.now();
      // Hours 8 to 14 of the ship's day without a link.
      for (let k = 0; k < 96; k++) {
        if (k === 32) shaper.setOutage(true);
        if (k === 56) shaper.setOutage(false);
        clock = start + k * quarter;
        await a.pictures.tasks.tick();
      }
      const statusOf = async () => (await shore.app.inject({ url: `/api/v1/cctv-server/v3/getNowTaskStatus/${task.id}`, headers: { [TOKEN_HEADER]: token } })).json<{ data: SnapshotTaskStatus }>().data;
      let status = await statusOf();
      const deadline = performance.now() + 600_000;
      while (status.counts.onShore < 96 && performance.now() < deadline) {
        await sleep(1_000);
        status = await statusOf();
      }
      const page = (await post('/api/v1/cctv/snapshot/complexQuery/1/200', { cameraId: CAMERA, origin: 'task' })).json<{ data: PicturePage }>().data;
      const ofTask = page.pictures.filter((p) => p.taskId === task.id);
      const taken = a.pictures.tasks.shots(task.id).filter((s) => s.outcome === 'taken').length;
      console.log(
        `[tasks] 24 ship hours at 0.25 h per shot (FBB, link down hours 8–14): ${taken}/96 shots taken, ${status.counts.onShore}/96 on shore, ` +
          `${ofTask.length - new Set(ofTask.map((p) => p.id)).size} twice; ${kb((await upPictures()) - before)} crossed; ${((performance.now() - started) / 1000).toFixed(1)} s of real time`,
      );
      shipNow = undefined;
      await a.stop();
    }
  } finally {
    await agent?.stop();
    await shaper.close();
    await shore.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

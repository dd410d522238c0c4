/**
 * Carousel benchmark: how long a page switch leaves cells without a picture, with and without the
 * pre-warm (the next page's streams started a few seconds before the switch), over 4G and VSAT; and
 * what a carousel costs the ship's uplink per hour against streaming the same channels all the time.
 * Prints figures; not part of npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/carousel.bench.ts [--parts=switch,bytes] [--links=FOURTHG,VSAT] [--rounds=3] [--prewarm=5]
 *
 * Everything runs here: a shore server (embedded database), ship S1001's agent with four synthetic
 * cameras behind a LinkShaper (steady profile: no jitter, no outages), and viewers on raw media
 * sockets doing what the carousel player does — open a cell's stream naming its carousel (a carousel
 * task of the four channels, made through the API), close it when its page goes.
 * A cell "shows a picture" when its first media fragment (which starts with a keyframe) arrives;
 * a browser shows it one decode later. Pages are two cells here (cameras 1+2, then 3+4) so that the
 * one ship has two pages of distinct cameras. A carousel's cells do not linger on shore when their
 * page leaves; rounds are still 11 s apart (a live view's linger) so that every switch without
 * pre-warm is a cold start however that rule changes.
 *
 * The uplink part runs a carousel of the four channels one per page (layout 1) with a 30 s dwell
 * for one cycle (2 minutes), and the four channels always on for as long as live views (these linger
 * 10 s after their viewers leave). It prints the measured bytes, per hour, and the same carousel
 * with the issue's 2-minute dwell worked out from the measured per-visit cost and stream rate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Carousel, type LinkReport, TOKEN_HEADER } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES, type LinkProfile, withOverrides } from '@ship-cctv/simulator';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { scrapeMetrics, signIn, startShore } from '../test/helpers/shore.ts';

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const PARTS = new Set((argOf('parts') ?? 'switch,bytes').split(','));
const ROUNDS = Math.max(1, Number(argOf('rounds') ?? 3));
const PREWARM_MS = Math.max(0, Number(argOf('prewarm') ?? 5)) * 1000;
const LINKS = (argOf('links') ?? 'FOURTHG,VSAT').split(',').filter((l): l is 'FOURTHG' | 'VSAT' | 'FBB' => ['FOURTHG', 'VSAT', 'FBB'].includes(l));
const SHIP = 'S1001';
const CAMERAS = ['S1001-C01-1', 'S1001-C02-1', 'S1001-C03-1', 'S1001-C04-1'];
const LINGER_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** A cell's stream: opened, and when its first media fragment came. */
class Cell {
  firstFragmentAt: number | undefined;
  private constructor(readonly client: MediaClient) {}

  static async open(port: number, token: string, cameraId: string, carouselId?: string): Promise<Cell> {
    const client = await MediaClient.open(port, token);
    const cell = new Cell(client);
    client.ws.on('message', (data, isBinary) => {
      if (!isBinary || cell.firstFragmentAt !== undefined) return;
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (buf.subarray(4, 8).toString('latin1') === 'moof') cell.firstFragmentAt = performance.now();
    });
    client.send({ type: 'play', mode: 'live', cameraId, ...(carouselId ? { carouselId } : {}) });
    return cell;
  }

  async shown(timeoutMs: number): Promise<number> {
    await this.client.until(() => this.firstFragmentAt !== undefined, timeoutMs, 'first fragment');
    return this.firstFragmentAt as number;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

async function main(): Promise<void> {
  const shore = await startShore();
  const key = await shore.app.agentKeys.issue(SHIP);
  const token = await signIn(shore.app);
  const steady = (p: LinkProfile): LinkProfile => withOverrides(p, { jitterMs: 0, outages: undefined });
  const shaper = new LinkShaper({ profile: steady(PROFILES.FOURTHG), target: { port: shore.port } });
  await shaper.listen();
  const dataDir = mkdtempSync(join(tmpdir(), 'carousel-bench-'));
  let report: LinkReport = { linkType: 'FOURTHG', quality: 80, duplex: 'BOTH' };
  const agent = new ShipAgent(
    { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: CAMERAS.map((cameraId, i) => ({ cameraId, source: 'synthetic' as const, name: `Camera ${i + 1}` })) },
    { current: () => report, onChange: () => () => undefined },
    { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 1_000, recorder: { dataDir } },
  );
  agent.start();
  while (!shore.app.agents.get(SHIP)?.ready) await sleep(50);
  const carousel = await shore.app.inject({
    method: 'POST',
    url: '/api/v1/cctv/carousel/add2',
    headers: { [TOKEN_HEADER]: token },
    payload: { name: 'Bench', orgId: 'blueocean', mode: 'channels', layout: 4, minutes: 1, channelIds: CAMERAS.map((c) => c.replace(/-1$/, '')) },
  });
  const carouselId = carousel.json<{ data: Carousel }>().data.id;
  const upLive = async () => Number(/shipcctv_link_bytes_total\{[^}]*direction="up"[^}]*purpose="live"[^}]*\} (\d+)/.exec(await scrapeMetrics(shore.app))?.[1] ?? 0);

  try {
    if (PARTS.has('switch')) {
      for (const name of LINKS) {
        shaper.setProfile(steady(PROFILES[name]));
        report = { linkType: name, quality: 80, duplex: 'BOTH' };
        const pages = [CAMERAS.slice(0, 2), CAMERAS.slice(2, 4)];
        // The first page on screen.
        let onScreen = await Promise.all((pages[0] ?? []).map((c) => Cell.open(shore.port, token, c, carouselId)));
        await Promise.all(onScreen.map((c) => c.shown(60_000)));
        const results: Record<'cold' | 'prewarm', number[]> = { cold: [], prewarm: [] };
        let page = 0;
        for (let round = 0; round < ROUNDS * 2; round++) {
          const mode = round % 2 === 0 ? 'cold' : 'prewarm';
          // Nothing of the coming page lingers on shore: its streams start cold.
          await sleep(LINGER_MS + 1_000 - (mode === 'prewarm' ? PREWARM_MS : 0));
          const nextPage = pages[(page + 1) % 2] ?? [];
          let next: Cell[] = [];
          if (mode === 'prewarm') {
            next = await Promise.all(nextPage.map((c) => Cell.open(shore.port, token, c, carouselId)));
            await sleep(PREWARM_MS);
          }
          const switchAt = performance.now();
          await Promise.all(onScreen.map((c) => c.close()));
          if (mode === 'cold') next = await Promise.all(nextPage.map((c) => Cell.open(shore.port, token, c, carouselId)));
          const shown = await Promise.all(next.map((c) => c.shown(60_000)));
          results[mode].push(Math.max(0, Math.max(...shown) - switchAt));
          onScreen = next;
          page = (page + 1) % 2;
        }
        await Promise.all(onScreen.map((c) => c.close()));
        const line = (mode: 'cold' | 'prewarm') => `median ${Math.round(median(results[mode]))} ms (${results[mode].map(Math.round).join(', ')})`;
        console.log(`[switch] ${name}: every cell of the new page showing a picture after the switch — without pre-warm ${line('cold')}; with ${PREWARM_MS / 1000} s pre-warm ${line('prewarm')}`);
      }
      await sleep(LINGER_MS + 1_000);
    }

    if (PARTS.has('bytes')) {
      shaper.setProfile(steady(PROFILES.FOURTHG));
      report = { linkType: 'FOURTHG', quality: 80, duplex: 'BOTH' };
      const DWELL_MS = 30_000;
      const cycleMs = DWELL_MS * CAMERAS.length;

      // The carousel: one channel per page, the next started PREWARM before its page.
      let before = await upLive();
      const started = performance.now();
      let current = await Cell.open(shore.port, token, CAMERAS[0] as string, carouselId);
      for (let i = 1; i <= CAMERAS.length; i++) {
        const pageEnd = started + i * DWELL_MS;
        await sleep(Math.max(0, pageEnd - PREWARM_MS - performance.now()));
        const next = i < CAMERAS.length ? await Cell.open(shore.port, token, CAMERAS[i] as string, carouselId) : undefined;
        await sleep(Math.max(0, pageEnd - performance.now()));
        await current.close();
        if (!next) break;
        current = next;
      }
      await sleep(LINGER_MS + 1_000);
      const carouselBytes = (await upLive()) - before;

      // The same channels, always on, for as long.
      before = await upLive();
      const all = await Promise.all(CAMERAS.map((c) => Cell.open(shore.port, token, c)));
      await sleep(cycleMs);
      await Promise.all(all.map((c) => c.close()));
      await sleep(LINGER_MS + 1_000);
      const alwaysOn = (await upLive()) - before;

      const perHour = 3_600_000 / cycleMs;
      console.log(`[bytes] 4 channels, 30 s a page, one cycle (2 min): carousel ${mb(carouselBytes)} (${mb(carouselBytes * perHour)} per hour), always on ${mb(alwaysOn)} (${mb(alwaysOn * perHour)} per hour): ${((carouselBytes / alwaysOn) * 100).toFixed(0)} %`);
      // The 2-minute carousel from the same measurements: each visit costs its measured bytes plus 90 s more of the stream.
      const ratePerChannelPerMs = alwaysOn / CAMERAS.length / (cycleMs + LINGER_MS);
      const visit2min = carouselBytes / CAMERAS.length + ratePerChannelPerMs * 90_000;
      const hourly2min = visit2min * (3_600_000 / 120_000);
      const alwaysHourly = ratePerChannelPerMs * CAMERAS.length * 3_600_000;
      console.log(`[bytes] 4 channels, 2 minutes a page (from the stream rate ${(ratePerChannelPerMs * 8).toFixed(0)} kbit/s a channel): carousel ${mb(hourly2min)} per hour against ${mb(alwaysHourly)} always on: ${((hourly2min / alwaysHourly) * 100).toFixed(0)} %`);
    }
  } finally {
    await agent.stop();
    await shaper.close();
    await shore.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);

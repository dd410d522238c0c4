/**
 * PTZ benchmark: the command round trip an operator feels — from pressing a direction (the move
 * request reaching shore) to the first picture that shows the camera moving (its fragment arriving
 * at the viewer's media socket) — over 4G, VSAT and FBB. Prints median and p90 per link; not part
 * of npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/ptz.bench.ts [--links=FOURTHG,VSAT,FBB] [--rounds=8]
 *
 * Everything runs here: a shore server (embedded database), ship S1001's agent with its Bridge as a
 * synthetic PTZ camera behind a LinkShaper (steady profile: no jitter, no outages), and one viewer
 * on a raw media socket at the ship's default definition for the link. The viewer's stream is
 * decoded as it arrives (ffmpeg, to small grey frames; a fragment is one frame), and each round
 * finds the first frame after the press that moved sideways from the one before it (and the next
 * one too), by lining up their column profiles — the small moving square does not move them all. The press is a
 * POST /api/v1/cctv/ptz/…/move to the right, the release its stop a second later; each round starts
 * from a preset left of the middle, so the window never reaches the scene's edge. A browser shows that frame one decode later.
 *
 * The definition is not pinned: over VSAT the uplink queue passes shore's mark and the stream drops to
 * the lowest definition (320×180 at 5 fps), later stepping back up — what an operator there meets. A
 * switch is a new init segment: the viewer decodes afresh, and a round it fell in is done again, so
 * every link reports --rounds presses; the line says how many were measured at which definition.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type LinkReport, TOKEN_HEADER } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES, type LinkProfile, withOverrides } from '@ship-cctv/simulator';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { signIn, startShore } from '../test/helpers/shore.ts';

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Math.max(1, Number(argOf('rounds') ?? 8));
const LINKS = (argOf('links') ?? 'FOURTHG,VSAT,FBB').split(',').filter((l): l is 'FOURTHG' | 'VSAT' | 'FBB' => ['FOURTHG', 'VSAT', 'FBB'].includes(l));
const SHIP = 'S1001';
const BRIDGE = 'S1001-C01-1';
const W = 160;
const H = 90;
/** Largest sideways move between frames looked for (a full-speed pan at 5 fps is ~13 px here). */
const MAX_SHIFT = 24;
/** Mean luma change per column (0–255) below which two frames count as the same picture. */
const MIN_CHANGE = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The viewer: its stream's fragments (arrival times) and their frames decoded as they come. */
class DecodingViewer {
  arrivals: number[] = [];
  frames: Uint8Array[] = [];
  /** Counts the stream's starts (a new init segment: a definition switch); frames are counted afresh. */
  generation = 0;
  private ffmpeg: ChildProcess;
  private pending = Buffer.alloc(0);
  /** The definitions the stream had (a switch sends a new codec event). */
  readonly codecs = new Set<string>();
  current = '';

  private constructor(readonly client: MediaClient) {
    this.ffmpeg = this.decoder();
    client.ws.on('message', (data, isBinary) => {
      if (!isBinary) {
        const event = JSON.parse(String(data)) as { type: string; width?: number; height?: number; frameRate?: number };
        if (event.type === 'codec') {
          this.current = `${event.width}×${event.height}`;
          this.codecs.add(`${this.current} at ${event.frameRate} fps`);
        }
        return;
      }
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      const box = buf.subarray(4, 8).toString('latin1');
      if (box === 'moof') this.arrivals.push(performance.now());
      else if (this.arrivals.length > 0) {
        // A new init segment: the stream restarted; decode it afresh.
        this.ffmpeg.kill('SIGKILL');
        this.ffmpeg = this.decoder();
        this.arrivals = [];
        this.frames = [];
        this.pending = Buffer.alloc(0);
        this.generation++;
      }
      this.ffmpeg.stdin?.write(buf);
    });
  }

  private decoder(): ChildProcess {
    const ffmpeg = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-probesize', '4096', '-analyzeduration', '0', '-f', 'mp4', '-i', 'pipe:0', '-vf', `scale=${W}:${H}`, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { stdio: ['pipe', 'pipe', 'inherit'] });
    ffmpeg.stdin?.on('error', () => undefined);
    ffmpeg.stdout?.on('data', (d: Buffer) => {
      if (ffmpeg !== this.ffmpeg) return;
      this.pending = Buffer.concat([this.pending, d]);
      while (this.pending.length >= W * H) {
        this.frames.push(new Uint8Array(this.pending.subarray(0, W * H)));
        this.pending = this.pending.subarray(W * H);
      }
    });
    return ffmpeg;
  }

  static async open(port: number, token: string): Promise<DecodingViewer> {
    const viewer = new DecodingViewer(await MediaClient.open(port, token));
    viewer.client.send({ type: 'play', mode: 'live', cameraId: BRIDGE });
    return viewer;
  }

  async close(): Promise<void> {
    this.ffmpeg.stdin?.end();
    this.ffmpeg.kill('SIGKILL');
    await this.client.close();
  }
}

/**
 * How far the picture moved sideways between two grey frames, in pixels: the shift that best lines
 * up their column profiles (mean luma per column, rows 30–80 %: below the name and clock, above the
 * capture code). The small moving square touches a few columns only; a pan shifts them all.
 */
function sideways(a: Uint8Array, b: Uint8Array): number {
  const profile = (f: Uint8Array) => {
    const out = new Float64Array(W);
    const top = Math.round(H * 0.3);
    const bottom = Math.round(H * 0.8);
    for (let y = top; y < bottom; y++) for (let x = 0; x < W; x++) out[x] = (out[x] ?? 0) + (f[y * W + x] ?? 0) / (bottom - top);
    return out;
  };
  const pa = profile(a);
  const pb = profile(b);
  const sad = (shift: number) => {
    let sum = 0;
    let n = 0;
    for (let x = Math.max(0, -shift); x < Math.min(W, W - shift); x++) {
      sum += Math.abs((pa[x + shift] ?? 0) - (pb[x] ?? 0));
      n++;
    }
    return sum / n;
  };
  const still = sad(0);
  let best = 0;
  let bestSad = still;
  for (let shift = -MAX_SHIFT; shift <= MAX_SHIFT; shift++) {
    const v = sad(shift);
    if (v < bestSad) {
      best = shift;
      bestSad = v;
    }
  }
  // A clear match only: a still picture (encoder noise) or a flat one lines up anywhere. The lowest
  // definition (320×180 at 150 kbit/s, where VSAT ends up) smears a pan, so a shifted frame matches
  // its predecessor only roughly: a tenth better than standing still is enough once the picture changed.
  return still >= MIN_CHANGE && bestSad < still * 0.9 ? best : 0;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
};

async function main(): Promise<void> {
  const shore = await startShore();
  const key = await shore.app.agentKeys.issue(SHIP);
  const token = await signIn(shore.app);
  const steady = (p: LinkProfile): LinkProfile => withOverrides(p, { jitterMs: 0, outages: undefined });
  const shaper = new LinkShaper({ profile: steady(PROFILES.FOURTHG), target: { port: shore.port } });
  await shaper.listen();
  const dataDir = mkdtempSync(join(tmpdir(), 'ptz-bench-'));
  // The ship's modem says which link it is on: shore picks the definition for it.
  let report: LinkReport = { linkType: 'FOURTHG', quality: 80, duplex: 'BOTH' };
  const listeners = new Set<(r: LinkReport) => void>();
  const setLink = (r: LinkReport) => {
    report = r;
    for (const l of listeners) l(r);
  };
  const agent = new ShipAgent(
    { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: [{ cameraId: BRIDGE, source: 'synthetic', name: 'Bridge', ptz: {} }] },
    {
      current: () => report,
      onChange: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 1_000, recorder: { dataDir } },
  );
  agent.start();
  while (!shore.app.agents.get(SHIP)?.ready) await sleep(50);
  const command = (path: string, payload?: object) =>
    shore.app.inject({ method: 'POST', url: `/api/v1/cctv/ptz/${SHIP}/${BRIDGE}/${path}`, headers: { [TOKEN_HEADER]: token }, ...(payload ? { payload } : {}) });

  try {
    // The start of every round: panned left of the middle, so a second's pan right never meets the edge.
    await command('move', { pan: -1, tilt: 0, zoom: 0, timeoutMs: 600 });
    await sleep(1_000);
    const preset = await shore.app.inject({ method: 'POST', url: `/api/v1/cctv/ptz/${SHIP}/${BRIDGE}/presets`, headers: { [TOKEN_HEADER]: token }, payload: { name: 'bench start' } });
    const start = preset.json<{ data: { presetId: string } }>().data.presetId;
    for (const name of LINKS) {
      shaper.setProfile(steady(PROFILES[name]));
      setLink({ linkType: name, quality: 80, duplex: 'BOTH' });
      await sleep(1_000);
      const viewer = await DecodingViewer.open(shore.port, token);
      while (viewer.frames.length < 20) await sleep(100);
      const results: number[] = [];
      const missed: number[] = [];
      const restarted: number[] = [];
      /** Presses measured at each definition. */
      const at = new Map<string, number>();
      // A round in which shore switched the definition (VSAT's queue grows past the mark: the lowest
      // definition, later back) is not a press the operator felt at one definition: it is done again.
      for (let round = 0; results.length + missed.length < ROUNDS && round < ROUNDS * 3; round++) {
        // Back where every round starts (the scene's left part, room to pan right), then still for 2 s.
        await command(`presets/${start}/goto`);
        await sleep(2_000);
        const pressedAt = performance.now();
        const before = viewer.arrivals.length;
        const generation = viewer.generation;
        const res = await command('move', { pan: 1, tilt: 0, zoom: 0, timeoutMs: 1_500 });
        if (res.statusCode !== 200) throw new Error(`move answered ${res.statusCode}: ${res.body}`);
        await sleep(1_000);
        await command('stop');
        await sleep(3_000);
        let found: number | undefined;
        if (viewer.generation !== generation) {
          restarted.push(round);
          continue;
        }
        // Panning right, the picture moves left: two frames in a row moved by 2 px or more.
        const moving = (i: number) => sideways(viewer.frames[i - 1] as Uint8Array, viewer.frames[i] as Uint8Array) >= 2;
        for (let i = Math.max(1, before); i + 1 < Math.min(viewer.frames.length, viewer.arrivals.length); i++) {
          if (moving(i) && moving(i + 1)) {
            found = (viewer.arrivals[i] as number) - pressedAt;
            break;
          }
        }
        if (found === undefined) missed.push(round);
        else {
          results.push(found);
          at.set(viewer.current, (at.get(viewer.current) ?? 0) + 1);
        }
      }
      await viewer.close();
      const fmt = (v: number) => `${Math.round(v)} ms`;
      console.log(
        `[ptz] ${name} (${[...viewer.codecs].join(', then ')}): press → picture moving: median ${fmt(quantile(results, 0.5))}, p90 ${fmt(quantile(results, 0.9))} over ${results.length} presses (${results.map(Math.round).join(', ')}; ${[...at].map(([d, n]) => `${n} at ${d}`).join(', ')})${missed.length ? `; no movement seen in rounds ${missed.join(', ')}` : ''}${restarted.length ? `; the definition switched (a new init segment) in rounds ${restarted.join(', ')}, done again` : ''}`,
      );
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

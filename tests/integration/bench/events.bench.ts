/**
 * Events benchmark (the ship's side): what the event analysis costs and how well it finds people.
 * Prints figures; not part of npm test. Run from the repository root:
 *
 *   node --import tsx tests/integration/bench/events.bench.ts [--seconds=120] [--parts=cpu,rtsp,accuracy,bytes]
 *
 * - cpu: one synthetic camera with walkers and boats (and its square that never stops moving: the
 *   detector is asked all the time, the worst case) analysed for --seconds by the agent's own
 *   analysis at its rate (3 frames a second, 640 px frames, motion at 320 px): CPU of the agent's
 *   process and of the camera's frame decoder (/proc), per analysed camera, as a share of one
 *   core; detections made and their time; events, their pictures' bytes, and the time from a
 *   walker entering the picture to its event handed to the outbox.
 * - rtsp: the same for a real RTSP camera (scripts/rtsp-camera.py, 1280×720 at 10 fps, a moving
 *   ball) read by the agent's camera session: what decoding a real camera's H.264 for the
 *   analysis costs beside it (the session itself is the agent's anyway and is measured apart).
 * - accuracy: precision and recall for people on a labelled set built here, through the
 *   analyser's own path (motion between two frames, the crop around what moved, the detector):
 *   the synthetic camera's walkers (positives), its boats and empty deck (negatives), and scenes
 *   made from packaged photographs — the eight pictures of people in @vladmandic/human's
 *   assets/samples.jpg pasted into backgrounds at two sizes and places (positives), and the
 *   flower photograph of @upscalerjs/esrgan-slim and the synthetic deck with things that are not
 *   people moving (negatives).
 * - bytes: each event's picture (JPEG) and record (JSON) as handed to the outbox: the bytes an
 *   event costs before the link's framing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CAMERA_EVENT_SETTINGS, type ShipEvent } from '@ship-cctv/protocol';
import { CameraSessions, type CameraSource, type Detector, eventPicture, loadDetector, startEventAnalysis } from '@ship-cctv/agent';
import { SyntheticCamera, WALK_S, actorAt, actorOfSlot, actorSeed, fontsFor, shootSynthetic, walkerImagePath } from '@ship-cctv/simulator';
import sharp from 'sharp';
import { cropAround, cropRgb } from '../../../apps/agent/src/events/analyser/camera-analyser.ts';
import { MotionDetector } from '../../../apps/agent/src/events/analyser/motion.ts';
import { UrlCamera } from '../../../apps/agent/src/url-camera.ts';
import { startRtspCamera } from '../../../apps/agent/test/helpers/rtsp-camera.ts';

const argv = process.argv.slice(2);
const argOf = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SECONDS = Math.max(20, Number(argOf('seconds') ?? 120));
const PARTS = new Set((argOf('parts') ?? 'cpu,rtsp,accuracy,bytes').split(','));
/** The RTSP camera's port (the bench's own range). */
const RTSP_PORT = Number(argOf('rtsp-port') ?? 19150);
const MIN_SCORE = DEFAULT_CAMERA_EVENT_SETTINGS.minScore;
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (user + system) of this process's children named ffmpeg, from /proc. */
function ffmpegChildrenCpu(): Map<number, number> {
  const tick = 100; // USER_HZ on Linux
  const out = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      if (comm !== 'ffmpeg' || Number(fields[1]) !== process.pid) continue;
      out.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / tick);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

interface EventSeen {
  event: ShipEvent;
  jpeg: Buffer;
  at: number;
}

/** Runs the agent's analysis on `sources` for `seconds`; CPU of this process and of the frame decoders. */
async function measure(label: string, sources: CameraSource[], seconds: number, baselineCpuS = 0): Promise<{ events: EventSeen[]; stats: Record<string, { detections: number; detectMs: number; frames: number; motionFrames: number }> }> {
  const seen: EventSeen[] = [];
  const analysis = startEventAnalysis({
    cameras: sources,
    sink: {
      add: async (event, jpeg) => {
        seen.push({ event, jpeg, at: Date.now() });
      },
    },
    settings: () => DEFAULT_CAMERA_EVENT_SETTINGS,
    log: (m) => console.log(`  [${label}] ${m}`),
  });
  // The detector loads with the first camera that needs it: wait for frames and the model, then measure.
  const warm = performance.now();
  while (performance.now() - warm < 30_000 && !Object.values(analysis.stats()).every((s) => s.frames > 3)) await sleep(200);
  await sleep(3000);
  const startCpu = process.cpuUsage();
  const startChildren = ffmpegChildrenCpu();
  const startStats = analysis.stats();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(startCpu);
  const endChildren = ffmpegChildrenCpu();
  const endStats = analysis.stats();
  await analysis.stop();
  let decoderCpu = 0;
  for (const [pid, s] of endChildren) decoderCpu += s - (startChildren.get(pid) ?? 0);
  const agentCpu = (cpu.user + cpu.system) / 1e6 - baselineCpuS;
  const n = sources.length;
  const stats: Record<string, { detections: number; detectMs: number; frames: number; motionFrames: number }> = {};
  for (const [id, s] of Object.entries(endStats)) {
    const b = startStats[id] ?? { detections: 0, detectMs: 0, frames: 0, motionFrames: 0 };
    stats[id] = { detections: s.detections - b.detections, detectMs: s.detectMs - b.detectMs, frames: s.frames - b.frames, motionFrames: s.motionFrames - b.motionFrames };
  }
  console.log(`\n## ${label}: ${n} camera(s), ${wall.toFixed(0)} s`);
  console.log(`| per analysed camera | share of one core |`);
  console.log(`|---|---|`);
  console.log(`| agent process (motion, detector, pictures)${baselineCpuS ? ', less the session alone' : ''} | ${pct(agentCpu / wall / n)} |`);
  console.log(`| frame decoder (ffmpeg) | ${pct(decoderCpu / wall / n)} |`);
  console.log(`| **total** | **${pct((agentCpu + decoderCpu) / wall / n)}** |`);
  for (const [id, s] of Object.entries(stats)) {
    console.log(`  ${id}: ${s.frames} frames (${(s.frames / wall).toFixed(2)}/s), ${s.motionFrames} with motion, ${s.detections} detections (${(s.detections / wall).toFixed(2)}/s, ${s.detections ? (s.detectMs / s.detections).toFixed(0) : '-'} ms each wall time)`);
  }
  return { events: seen, stats };
}

async function cpuPart(): Promise<EventSeen[]> {
  const name = 'Bench Deck';
  const camera = new SyntheticCamera({ cameraId: 'B1-C01-1', source: 'synthetic', name }, { dataDir: undefined, sessions: undefined, now: Date.now }, { actors: true });
  const { events } = await measure('synthetic camera with walkers and boats', [camera], SECONDS);
  const seed = actorSeed(name);
  // Walkers that crossed while it ran: found or not (an event whose picture shows them), and how
  // long after they came in its event was handed to the outbox.
  const runFrom = Date.now() - SECONDS * 1000;
  const walks = new Map<number, { from: number; to: number; found?: number }>();
  for (let t = runFrom; t < Date.now(); t += 1000) {
    const a = actorOfSlot(t, seed);
    if (a.kind === 'walker' && a.from >= runFrom && a.to <= Date.now()) walks.set(a.from, { from: a.from, to: a.to });
  }
  const delays: number[] = [];
  for (const e of events) {
    if (!e.event.classes.some((c) => c.class === 'person')) continue;
    const walk = [...walks.values()].find((w) => e.event.picture.time >= w.from && e.event.picture.time <= w.to);
    if (!walk || walk.found !== undefined) continue;
    walk.found = e.at;
    // Entering: count from when a third of the walker's picture is in (its box is 0.236 of the width, crossing 1.236 in 12 s).
    delays.push((e.at - (walk.from + (0.33 * 0.236 * WALK_S * 1000) / 1.236)) / 1000);
  }
  const classes = events.map((e) => e.event.classes.map((c) => `${c.class} ${c.score}`).join('+'));
  console.log(`  events: ${events.length} (${classes.join(', ')})`);
  console.log(`  walkers that crossed the picture: ${walks.size}, with a person event: ${[...walks.values()].filter((w) => w.found !== undefined).length}`);
  if (delays.length) console.log(`  a walker a third in the picture → its event handed to the outbox: median ${median(delays).toFixed(1)} s, max ${Math.max(...delays).toFixed(1)} s (n = ${delays.length})`);
  return events;
}

async function rtspPart(): Promise<EventSeen[]> {
  const camera = await startRtspCamera({ port: RTSP_PORT, width: 1280, height: 720, fps: 10, bitrateKbps: 2000 });
  const sessions = new CameraSessions();
  try {
    const source = new UrlCamera({ cameraId: 'B1-C02-1', source: camera.url }, { dataDir: undefined, sessions, now: Date.now });
    const hold = source.hold();
    // The session alone first (the agent holds it anyway): its CPU is not the analysis's.
    await sleep(5000);
    const base = process.cpuUsage();
    const t = performance.now();
    await sleep(20_000);
    const b = process.cpuUsage(base);
    const sessionCpuPerS = (b.user + b.system) / 1e6 / ((performance.now() - t) / 1000);
    console.log(`\n  the camera session alone (RTSP reader, 1280×720 at 10 fps): ${pct(sessionCpuPerS)} of a core`);
    const { events } = await measure('RTSP camera 1280×720 at 10 fps (moving ball), session decoded for the analysis', [source], Math.min(SECONDS, 60), sessionCpuPerS * (Math.min(SECONDS, 60) + 0));
    hold();
    return events;
  } finally {
    await sessions.stopAll();
    await camera.stop();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

interface Rgb {
  rgb: Uint8Array;
  width: number;
  height: number;
}
interface Scene {
  name: string;
  before: Rgb;
  after: Rgb;
  /** Where the person is in `after` (fractions); undefined: nobody. */
  person?: { x: number; y: number; w: number; h: number };
}

async function rgbOf(input: string | Buffer, region?: { left: number; top: number; width: number; height: number }, resize?: { width: number; height: number }): Promise<Rgb> {
  let img = sharp(input);
  if (region) img = img.extract(region);
  if (resize) img = img.resize(resize.width, resize.height, { fit: 'fill' });
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: info.width, height: info.height };
}

function paste(base: Rgb, over: Rgb, x: number, y: number): Rgb {
  const out = new Uint8Array(base.rgb);
  for (let r = 0; r < over.height; r++) {
    const ty = y + r;
    if (ty < 0 || ty >= base.height) continue;
    for (let c = 0; c < over.width; c++) {
      const tx = x + c;
      if (tx < 0 || tx >= base.width) continue;
      const s = (r * over.width + c) * 3;
      out.set(over.rgb.subarray(s, s + 3), (ty * base.width + tx) * 3);
    }
  }
  return { rgb: out, width: base.width, height: base.height };
}

/** The labelled set: synthetic frames and scenes from packaged photographs. */
async function labelledSet(): Promise<Scene[]> {
  const scenes: Scene[] = [];
  const name = 'Bench Deck';
  const seed = actorSeed(name);
  const actors = { seed, walkerImage: walkerImagePath() };
  const shot = async (at: number) => rgbOf((await shootSynthetic(name, at, { width: 640, height: 360 }, fontsFor(name), undefined, actors)).jpeg);
  const day = Date.UTC(2026, 10, 29);
  // Synthetic: walkers wholly in the picture, boats, nobody; each frame with the one 333 ms before.
  let walkers = 0;
  let boats = 0;
  let empty = 0;
  for (let t = day; walkers + boats + empty < 90 && t < day + 3_600_000; t += 2333) {
    const a = actorAt(t, seed);
    const kind = !a ? 'empty' : a.kind === 'walker' && a.box.x >= 0 && a.box.x + a.box.w <= 1 ? 'walker' : a.kind === 'boat' && a.box.x >= 0 && a.box.x + a.box.w <= 1 ? 'boat' : undefined;
    if (!kind || (kind === 'walker' && walkers >= 40) || (kind === 'boat' && boats >= 25) || (kind === 'empty' && empty >= 25)) continue;
    if (kind === 'walker') walkers++;
    else if (kind === 'boat') boats++;
    else empty++;
    scenes.push({ name: `synthetic ${kind}`, before: await shot(t - 333), after: await shot(t), ...(kind === 'walker' && a ? { person: a.box } : {}) });
  }
  // Photographs: the eight pictures of people, pasted into the synthetic deck and the flower.
  const require = createRequire(import.meta.url);
  const samples = join(dirname(require.resolve('@vladmandic/human')), '..', 'assets', 'samples.jpg');
  const flowerFile = join(dirname(require.resolve('@upscalerjs/esrgan-slim')), '..', '..', '..', '..', '..', 'assets', 'samples', '4x', 'result.png');
  const strip = [
    { left: 0, top: 0, width: 158, height: 158 },
    { left: 166, top: 0, width: 150, height: 158 },
    { left: 326, top: 0, width: 210, height: 158 },
    { left: 545, top: 0, width: 92, height: 158 },
    { left: 643, top: 0, width: 148, height: 158 },
    { left: 797, top: 0, width: 112, height: 158 },
    { left: 912, top: 0, width: 212, height: 158 },
    { left: 1130, top: 0, width: 150, height: 158 },
  ];
  const deck = await shot(day + 5000);
  const flower = await rgbOf(flowerFile, undefined, { width: 640, height: 360 });
  for (const [i, region] of strip.entries()) {
    for (const [bgName, bg] of [['deck', deck], ['flower', flower]] as const) {
      for (const scale of [1, 1.6]) {
        const person = await rgbOf(samples, region, { width: Math.round(region.width * scale), height: Math.round(region.height * scale) });
        const x = (i * 67 + (scale > 1 ? 300 : 40)) % (640 - person.width);
        const y = 360 - person.height - (scale > 1 ? 10 : 60);
        scenes.push({ name: `photo ${i + 1} in ${bgName}`, before: bg, after: paste(bg, person, x, y), person: { x: x / 640, y: y / 360, w: person.width / 640, h: person.height / 360 } });
      }
    }
  }
  // Photographs without people: the flower at other crops, moving in from the side.
  for (let i = 0; i < 12; i++) {
    const piece = await rgbOf(flowerFile, { left: (i * 37) % 200, top: (i * 53) % 200, width: 200, height: 200 }, { width: 140 + (i % 3) * 40, height: 140 + (i % 3) * 40 });
    scenes.push({ name: 'flower piece in deck', before: deck, after: paste(deck, piece, 60 + i * 40, 100) });
  }
  return scenes;
}

async function accuracyPart(detector: Detector): Promise<void> {
  const scenes = await labelledSet();
  const thresholds = [0.3, 0.4, 0.5, 0.6];
  const counts = thresholds.map(() => ({ tp: 0, fp: 0, fn: 0 }));
  const byKind = new Map<string, { n: number; hits: number }>();
  let ms = 0;
  for (const s of scenes) {
    const motion = new MotionDetector(DEFAULT_CAMERA_EVENT_SETTINGS);
    motion.update(s.before.rgb, s.before.width, s.before.height);
    const m = motion.update(s.after.rgb, s.after.width, s.after.height);
    let people: { score: number; cx: number; cy: number }[] = [];
    if (m.moving && m.box) {
      const frame = { time: 0, ...s.after };
      const crop = cropAround(m.box, frame.width, frame.height);
      const t = performance.now();
      const found = await detector.detect(cropRgb(frame, crop), crop.w, crop.h);
      ms += performance.now() - t;
      people = found
        .filter((d) => d.class === 'person')
        .map((d) => ({ score: d.score, cx: (crop.x + (d.box.x + d.box.w / 2) * crop.w) / frame.width, cy: (crop.y + (d.box.y + d.box.h / 2) * crop.h) / frame.height }));
    }
    const inBox = (p: { cx: number; cy: number }) => s.person !== undefined && p.cx >= s.person.x && p.cx <= s.person.x + s.person.w && p.cy >= s.person.y && p.cy <= s.person.y + s.person.h;
    thresholds.forEach((th, i) => {
      const c = counts[i] as { tp: number; fp: number; fn: number };
      const over = people.filter((p) => p.score >= th);
      const hit = over.some(inBox);
      if (s.person) {
        if (hit) c.tp++;
        else c.fn++;
      }
      c.fp += over.filter((p) => !inBox(p)).length;
    });
    const k = byKind.get(s.name.replace(/ \d+ /, ' ')) ?? { n: 0, hits: 0 };
    k.n++;
    if (people.some((p) => p.score >= MIN_SCORE && (s.person ? inBox(p) : true))) k.hits++;
    byKind.set(s.name.replace(/ \d+ /, ' '), k);
  }
  const positives = scenes.filter((s) => s.person).length;
  console.log(`\n## people: precision and recall on ${scenes.length} labelled scenes (${positives} with a person), through motion → crop → detector`);
  console.log('| min score | true positives | false positives | missed | precision | recall |');
  console.log('|---|---|---|---|---|---|');
  thresholds.forEach((th, i) => {
    const c = counts[i] as { tp: number; fp: number; fn: number };
    console.log(`| ${th}${th === MIN_SCORE ? ' (default)' : ''} | ${c.tp} | ${c.fp} | ${c.fn} | ${pct(c.tp / Math.max(1, c.tp + c.fp))} | ${pct(c.tp / Math.max(1, c.tp + c.fn))} |`);
  });
  console.log(`  by kind at ${MIN_SCORE}:`);
  for (const [k, v] of byKind) {
    const withPerson = scenes.some((s) => s.person && s.name.replace(/ \d+ /, ' ') === k);
    console.log(`  - ${k}: ${withPerson ? `person found in its place in ${v.hits} of ${v.n}` : `a person reported in ${v.hits} of ${v.n} (nobody there)`}`);
  }
  console.log(`  detector: ${(ms / scenes.length).toFixed(0)} ms a scene (wall time, on this shared machine)`);
}

async function bytesPart(events: EventSeen[]): Promise<void> {
  let list = events;
  if (list.length === 0) {
    // No run made events: the pictures of the labelled walkers, as the analyser would make them.
    const name = 'Bench Deck';
    const seed = actorSeed(name);
    const pics: EventSeen[] = [];
    for (let t = Date.UTC(2026, 10, 29); pics.length < 10; t += 7000) {
      const a = actorAt(t, seed);
      if (a?.kind !== 'walker') continue;
      const p = await rgbOf((await shootSynthetic(name, t, { width: 640, height: 360 }, fontsFor(name), undefined, { seed, walkerImage: walkerImagePath() })).jpeg);
      const pic = await eventPicture(p.rgb, p.width, p.height);
      pics.push({ at: t, jpeg: pic.jpeg, event: { eventId: 'x'.repeat(30), cameraId: 'B1-C01-1', start: t, end: t + 2000, classes: [{ class: 'person', score: 0.7 }], picture: { bytes: pic.jpeg.length, width: pic.width, height: pic.height, sha256: pic.sha256, time: t }, recording: { from: t - 5000, to: t + 7000 } } });
    }
    list = pics;
  }
  const jpeg = list.map((e) => e.jpeg.length);
  const json = list.map((e) => Buffer.byteLength(JSON.stringify(e.event)));
  const total = jpeg.map((n, i) => n + (json[i] as number));
  console.log(`\n## bytes per event (${list.length} events; before the link's framing)`);
  console.log('| | median | max |');
  console.log('|---|---|---|');
  console.log(`| picture (JPEG, ${list[0]?.event.picture.width}×${list[0]?.event.picture.height}) | ${median(jpeg)} | ${Math.max(...jpeg)} |`);
  console.log(`| record (JSON) | ${median(json)} | ${Math.max(...json)} |`);
  console.log(`| **event** | **${median(total)}** | **${Math.max(...total)}** |`);
}

async function main(): Promise<void> {
  console.log(`# events benchmark (${new Date().toISOString()}, ${SECONDS} s runs)`);
  let events: EventSeen[] = [];
  if (PARTS.has('cpu')) events = events.concat(await cpuPart());
  if (PARTS.has('rtsp')) events = events.concat(await rtspPart());
  if (PARTS.has('accuracy')) {
    const detector = await loadDetector();
    await accuracyPart(detector);
    detector.dispose();
  }
  if (PARTS.has('bytes')) await bytesPart(events);
}

await main();
process.exit(0);

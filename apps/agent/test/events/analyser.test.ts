import { type CameraEventSettings, DEFAULT_CAMERA_EVENT_SETTINGS, EVENT_PICTURE_MAX_BYTES, ShipEvent } from '@ship-cctv/protocol';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import type { CameraSource } from '../../src/camera-source.ts';
import { jpegSize } from '../../src/pictures/capture.ts';
import { CameraAnalyser, DEFAULT_TIMING } from '../../src/events/analyser/camera-analyser.ts';
import type { Detection } from '../../src/events/analyser/detector.ts';
import type { AnalysisFrame, FramesRequest } from '../../src/events/analyser/frames.ts';
import { MemoryEventSink, startEventAnalysis } from '../../src/events/analyser/index.ts';
import { frameOf, flat, paste } from './pictures.ts';

const W = 640;
const H = 360;
const bg = flat(W, H, [27, 58, 87]);
const walker = flat(30, 90, [200, 120, 80]);
/** Frames 333 ms apart of a walker crossing from x0 to x1 (pixels) over n frames, then `still` frames without it. */
function walk(t0: number, n: number, x0: number, x1: number, y: number, still: number) {
  const frames = [frameOf(bg, t0)];
  for (let i = 0; i < n; i++) frames.push(frameOf(paste(bg, walker, Math.round(x0 + ((x1 - x0) * i) / Math.max(1, n - 1)), y), t0 + (i + 1) * 333));
  for (let i = 0; i < still; i++) frames.push(frameOf(bg, t0 + (n + 1 + i) * 333));
  return frames;
}

/** A detector that sees a person where the crop's orange pixels are, with a score that grows frame by frame. */
function fakeDetector(scores: number[], cls: Detection['class'] = 'person') {
  let i = 0;
  return async (rgb: Uint8Array, width: number, height: number): Promise<Detection[]> => {
    let minX = width;
    let maxX = -1;
    let minY = height;
    let maxY = -1;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        if (rgb[(y * width + x) * 3] === 200) {
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
    const score = scores[Math.min(i++, scores.length - 1)] as number;
    if (maxX < 0) return [];
    return [{ class: cls, score, box: { x: minX / width, y: minY / height, w: (maxX - minX + 1) / width, h: (maxY - minY + 1) / height } }];
  };
}

function analyser(settings: Partial<CameraEventSettings>, detect: ReturnType<typeof fakeDetector>, timing = {}) {
  const sink = new MemoryEventSink();
  const a = new CameraAnalyser({
    cameraId: 'S1001-C01-1',
    settings: { ...DEFAULT_CAMERA_EVENT_SETTINGS, ...settings },
    timing: { ...DEFAULT_TIMING, detectEveryMs: 0, ...timing },
    detect,
    emit: (e, j) => sink.add(e, j),
    log: () => undefined,
  });
  return { a, sink };
}

/** Feeds frames one at a time, letting each detection finish as it would between frames 333 ms apart. */
async function feed(a: CameraAnalyser, frames: ReturnType<typeof walk>) {
  for (const f of frames) {
    a.frame(f);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  }
  await a.settled();
}

describe('an event from a camera\'s frames', () => {
  it('is a person with its best score, the best frame as a picture under 30 kB, the span and the recording around it', async () => {
    // Held a second after its first detection: the better frame of the second detection is its picture.
    const { a, sink } = analyser({}, fakeDetector([0.55, 0.8, 0.7, 0.6]), { emitAfterMs: 1000 });
    const t0 = 1_780_000_000_000;
    await feed(a, walk(t0, 8, 100, 500, 200, 14));
    await sink.waitFor(1, 2000);
    // One event: its record when sent, and its later one with the walk's end once it is over.
    expect(sink.events.map((e) => e.event.eventId)).toEqual([sink.events[0]!.event.eventId, sink.events[0]!.event.eventId]);
    expect(sink.events[1]!.event.end).toBeGreaterThan(sink.events[0]!.event.end);
    const { event, jpeg } = sink.events[0] as { event: ShipEvent; jpeg: Buffer };
    expect(Value.Check(ShipEvent, event), JSON.stringify([...Value.Errors(ShipEvent, event)])).toBe(true);
    expect(event.cameraId).toBe('S1001-C01-1');
    expect(event.classes).toEqual([{ class: 'person', score: 0.8 }]);
    expect(event.start).toBe(t0 + 333);
    expect(event.end).toBeGreaterThan(event.start);
    expect(event.picture.time).toBe(t0 + 2 * 333);
    expect(event.zone).toBeUndefined();
    expect(event.recording).toEqual({ from: event.start - 5000, to: event.end + 5000 });
    expect(jpeg.length).toBe(event.picture.bytes);
    expect(jpeg.length).toBeLessThanOrEqual(EVENT_PICTURE_MAX_BYTES);
    expect(jpegSize(jpeg)).toEqual({ width: 640, height: 360 });
  });

  it('is sent as soon as the detection that confirms it ends, while the person is still there, once', async () => {
    expect(DEFAULT_TIMING.emitAfterMs).toBe(0);
    let release: (() => void) | undefined;
    const detect = fakeDetector([0.9]);
    // The first detection ends only when the test says: the event must be handed on then, before another frame comes.
    let calls = 0;
    const { a, sink } = analyser({}, async (rgb, w, h) => {
      if (calls++ === 0) await new Promise<void>((r) => (release = r));
      return detect(rgb, w, h);
    });
    const frames = walk(0, 30, 50, 600, 150, 20);
    a.frame(frames[0]!);
    a.frame(frames[1]!);
    expect(release).toBeDefined();
    release?.();
    await sink.waitFor(1, 2000);
    expect(sink.events[0]?.event.picture.time).toBe(333);
    // 30 frames of walking (10 s): still one event, sent with the end known then …
    await feed(a, frames.slice(2, 31));
    expect(sink.events).toHaveLength(1);
    const e = sink.events[0]?.event as ShipEvent;
    expect(e.end - e.start).toBeLessThanOrEqual(400);
    // … and once nobody moved for 4 s, its later record: the walk's end, the same picture.
    await feed(a, frames.slice(31));
    expect(sink.events).toHaveLength(2);
    const { event: later, jpeg } = sink.events[1] as { event: ShipEvent; jpeg: Buffer };
    expect(Value.Check(ShipEvent, later)).toBe(true);
    expect(later.eventId).toBe(e.eventId);
    expect(later.start).toBe(e.start);
    expect(later.end).toBe(frames[30]!.time);
    expect(later.recording).toEqual({ from: e.recording.from, to: later.end + 5000 });
    expect(later.picture).toEqual(e.picture);
    expect(jpeg.equals(sink.events[0]!.jpeg)).toBe(true);
    expect(a.stats).toMatchObject({ events: 1, amended: 1 });
  });

  it('sends no later record of an event over within a second of when it was sent', async () => {
    // One detection of a person who is gone by the next: the event ends where it was sent.
    const { a, sink } = analyser({}, fakeDetector([0.9]), { detectEveryMs: 1500, detectIdleMaxMs: 1500 });
    await feed(a, walk(0, 3, 100, 160, 200, 20));
    expect(sink.events).toHaveLength(1);
    expect(a.stats.amended).toBe(0);
  });

  it('keeps nothing below the minimum score, of a class not asked for, or only moving unless motion is asked', async () => {
    const low = analyser({ minScore: 0.6 }, fakeDetector([0.5]));
    await feed(low.a, walk(0, 8, 100, 500, 200, 14));
    expect(low.sink.events).toHaveLength(0);
    const boat = analyser({ classes: ['person'] }, fakeDetector([0.9], 'boat'));
    await feed(boat.a, walk(0, 8, 100, 500, 200, 14));
    expect(boat.sink.events).toHaveLength(0);
    const motion = analyser({ classes: ['person', 'motion'] }, fakeDetector([0.1]));
    await feed(motion.a, walk(0, 8, 100, 500, 200, 14));
    expect(motion.sink.events.map((e) => e.event.classes)).toEqual([[{ class: 'motion', score: 1 }]]);
  });

  it('names the zone the person stands in, and ignores one standing in a mask', async () => {
    const deck: [number, number][] = [[0, 0.5], [1, 0.5], [1, 1], [0, 1]];
    const zoned = analyser({ zones: [{ name: 'deck', polygon: deck }] }, fakeDetector([0.9]));
    await feed(zoned.a, walk(0, 8, 100, 500, 200, 14));
    expect(zoned.sink.events[0]?.event.zone).toBe('deck');
    const masked = analyser({ masks: [[[0, 0.4], [1, 0.4], [1, 1], [0, 1]]] }, fakeDetector([0.9]));
    await feed(masked.a, walk(0, 8, 100, 500, 200, 14));
    expect(masked.sink.events).toHaveLength(0);
  });

  it('among things that move all the time, begins when the person came and makes a new event for the next person', async () => {
    const { a, sink } = analyser({}, fakeDetector([0.9]));
    const flag = flat(40, 40, [90, 200, 90]);
    const frames = [];
    for (let i = 0; i < 80; i++) {
      // A flag waving at the top the whole time; a person from frame 10 to 19 and from 50 to 59.
      let p = paste(bg, flag, 300 + (i % 2) * 30, 20);
      if ((i >= 10 && i < 20) || (i >= 50 && i < 60)) p = paste(p, walker, 100 + (i % 10) * 40, 200);
      frames.push(frameOf(p, i * 333));
    }
    await feed(a, frames);
    // Two events (each with its later record once it is over).
    const latest = new Map(sink.events.map((e) => [e.event.eventId, e.event]));
    expect(latest.size).toBe(2);
    const [first, second] = [...latest.values()] as [ShipEvent, ShipEvent];
    expect(first.end).toBeGreaterThanOrEqual(18 * 333);
    expect(first.end).toBeLessThan(second.start);
    // Not the flag's first frame: the look before the person came.
    expect(first.start).toBe(9 * 333);
    expect(second.start).toBe(49 * 333);
    expect(second.picture.time).toBeGreaterThanOrEqual(50 * 333);
  });
});

/** A camera whose frames the test hands over. */
function fakeCamera(cameraId: string) {
  const feeds: FramesRequest[] = [];
  let stops = 0;
  const source = {
    camera: { cameraId, source: 'test' },
    analysisFrames(req: FramesRequest) {
      feeds.push(req);
      return { stop: () => void stops++ };
    },
  } as unknown as CameraSource;
  return { source, feeds, stops: () => stops };
}

describe('event analysis of the ship\'s cameras', () => {
  it('starts nothing for a camera that is off or outside its schedule, and says so', async () => {
    const off = fakeCamera('C-off');
    const night = fakeCamera('C-night');
    const bad = fakeCamera('C-badzone');
    const now = Date.UTC(2026, 5, 1, 12, 0);
    const settings: Record<string, CameraEventSettings> = {
      'C-off': { ...DEFAULT_CAMERA_EVENT_SETTINGS, enabled: false },
      'C-night': { ...DEFAULT_CAMERA_EVENT_SETTINGS, schedule: { kind: 'daily', timeZone: 'UTC', from: '18:00', to: '06:00' } },
      'C-badzone': { ...DEFAULT_CAMERA_EVENT_SETTINGS, schedule: { kind: 'daily', timeZone: 'Mars/Base', from: '18:00', to: '06:00' } },
    };
    let loads = 0;
    const analysis = startEventAnalysis({
      cameras: [off.source, night.source, bad.source],
      sink: new MemoryEventSink(),
      settings: (id) => settings[id] as CameraEventSettings,
      loadDetector: async () => {
        loads++;
        throw new Error('not wanted');
      },
      now: () => now,
      log: () => undefined,
    });
    expect(analysis.status()).toEqual([
      { cameraId: 'C-off', state: 'off' },
      { cameraId: 'C-night', state: 'outsideSchedule' },
      { cameraId: 'C-badzone', state: 'off', reason: expect.stringMatching(/unknown time zone "Mars\/Base"/) },
    ]);
    expect(off.feeds.length + night.feeds.length + bad.feeds.length).toBe(0);
    expect(loads).toBe(0);
    // Turned on: its feed starts; turned off again: it stops.
    analysis.apply('C-off', DEFAULT_CAMERA_EVENT_SETTINGS);
    expect(off.feeds).toHaveLength(1);
    analysis.apply('C-off', { ...DEFAULT_CAMERA_EVENT_SETTINGS, enabled: false });
    expect(off.stops()).toBe(1);
    await analysis.stop();
  });

  it('says in the camera\'s status that the model failed, with the reason, and goes on with motion', async () => {
    const cam = fakeCamera('C1');
    const logs: string[] = [];
    const sink = new MemoryEventSink();
    const analysis = startEventAnalysis({
      cameras: [cam.source],
      sink,
      settings: () => ({ ...DEFAULT_CAMERA_EVENT_SETTINGS, classes: ['person', 'motion'] }),
      loadDetector: async () => {
        throw new Error('centernet.bin: no such file');
      },
      timing: { quietMs: 1000 },
      log: (m) => logs.push(m),
    });
    const req = cam.feeds[0] as FramesRequest;
    await expect.poll(() => analysis.status()[0]).toEqual({ cameraId: 'C1', state: 'modelFailed', reason: 'centernet.bin: no such file' });
    expect(logs.some((l) => l.includes('did not load') && l.includes('centernet.bin: no such file'))).toBe(true);
    // Frames still flow and motion still makes its events.
    for (const f of walk(Date.now(), 6, 100, 500, 200, 6)) req.onFrame(f);
    await sink.waitFor(1, 5000);
    expect(sink.events[0]?.event.classes).toEqual([{ class: 'motion', score: 1 }]);
    expect(analysis.status()[0]?.state).toBe('modelFailed');
    await analysis.stop();
  });

  it('shares one detector between cameras: a camera that found it busy asks again at its next frame', async () => {
    const a = fakeCamera('A');
    const b = fakeCamera('B');
    const calls: number[] = [];
    let release: (() => void) | undefined;
    const analysis = startEventAnalysis({
      cameras: [a.source, b.source],
      sink: new MemoryEventSink(),
      settings: () => DEFAULT_CAMERA_EVENT_SETTINGS,
      loadDetector: async () => ({
        detect: (rgb) => {
          calls.push(rgb.length);
          return new Promise((resolve) => (release = () => resolve([])));
        },
        dispose: () => undefined,
      }),
      log: () => undefined,
    });
    const moving = walk(0, 4, 100, 400, 100, 0);
    const [fa, fb] = [a.feeds[0] as FramesRequest, b.feeds[0] as FramesRequest];
    fa.onFrame(moving[0] as AnalysisFrame);
    fb.onFrame(moving[0] as AnalysisFrame);
    fa.onFrame(moving[1] as AnalysisFrame);
    await expect.poll(() => calls.length).toBe(1);
    // B moves while A's detection runs: the detector is busy.
    fb.onFrame(moving[1] as AnalysisFrame);
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    release?.();
    // B's next frame, 333 ms on (not 1.5 s): its detection runs.
    await new Promise((r) => setImmediate(r));
    fb.onFrame(moving[2] as AnalysisFrame);
    await expect.poll(() => calls.length).toBe(2);
    release?.();
    await analysis.stop();
  });

  it('runs when frames come, and waits and starts again when the feed ends', async () => {
    const cam = fakeCamera('C1');
    const analysis = startEventAnalysis({
      cameras: [cam.source],
      sink: new MemoryEventSink(),
      settings: () => ({ ...DEFAULT_CAMERA_EVENT_SETTINGS, classes: ['motion'] }),
      restartAfterMs: 50,
      silentAfterMs: 300,
      log: () => undefined,
    });
    expect(analysis.status()[0]).toEqual({ cameraId: 'C1', state: 'idle' });
    cam.feeds[0]?.onFrame(frameOf(bg, Date.now()));
    expect(analysis.status()[0]).toEqual({ cameraId: 'C1', state: 'running' });
    // The camera stops sending: idle, and running again with its next frame.
    await expect.poll(() => analysis.status()[0], { timeout: 3000 }).toEqual({ cameraId: 'C1', state: 'idle', reason: 'no pictures from the camera for 0.3 s' });
    cam.feeds[0]?.onFrame(frameOf(bg, Date.now()));
    expect(analysis.status()[0]).toEqual({ cameraId: 'C1', state: 'running' });
    cam.feeds[0]?.onEnd('the analysis decoder ended (exit 1)');
    expect(analysis.status()[0]).toEqual({ cameraId: 'C1', state: 'idle', reason: 'the analysis decoder ended (exit 1)' });
    await expect.poll(() => cam.feeds.length).toBe(2);
    await analysis.stop();
  });
});

import { type CameraEventSettings, type ShipEvent, UnknownTimeZoneError } from '@ship-cctv/protocol';
import type { CameraSource } from '../../camera-source.ts';
import { CameraAnalyser, DEFAULT_TIMING, type EventTiming } from './camera-analyser.ts';
import { type Detector, loadDetectorInWorker } from './detector.ts';
import type { AnalysisFrame, FrameFeed } from './frames.ts';
import { inSchedule } from './schedule.ts';

/**
 * Events found on the ship: each camera's running picture analysed a few times a second (motion by
 * frame difference with its masks, zones and sensitivity; on motion the object detector on the
 * moving region), turned into events with one best picture and handed to an EventSink — the
 * durable outbox that sends them to shore. Nothing here writes to the link, and nothing here stops
 * video or recording: a detector that fails to load is said in the cameras' status and the log.
 */
export interface EventSink {
  add(event: ShipEvent, jpeg: Buffer): Promise<void>;
}

export interface CameraAnalysisStatus {
  cameraId: string;
  state: 'off' | 'idle' | 'running' | 'modelFailed' | 'outsideSchedule';
  reason?: string;
}

/** Frames a second analysed, and the widest frame (motion runs at half of it, the picture is at most it). */
export const ANALYSIS_FPS = 3;
export const ANALYSIS_MAX_WIDTH = 640;

export interface EventAnalysisOptions {
  cameras: Iterable<CameraSource>;
  sink: EventSink;
  settings(cameraId: string): CameraEventSettings;
  /**
   * Which cameras this ship analyses at all, whatever their settings say (what its machine can
   * carry). Default: every camera. The others' status is `off`, with the reason.
   */
  analysed?: (cameraId: string) => boolean;
  log?: (message: string) => void;
  fps?: number;
  timing?: Partial<EventTiming>;
  /** Loads the detector (default: CenterNet from @vladmandic/human on TensorFlow.js WASM, in a worker thread). */
  loadDetector?: () => Promise<Detector>;
  /** How often schedules are looked at again. Default 30 s. */
  scheduleEveryMs?: number;
  /** A camera's feed that ended is started again after this. Default 5 s. */
  restartAfterMs?: number;
  now?: () => number;
}

export interface EventAnalysis {
  /** New settings for a camera (from shore): applied at once, the feed started or stopped as they say. */
  apply(cameraId: string, settings: CameraEventSettings): void;
  status(): CameraAnalysisStatus[];
  /** Each camera's counters (frames, motion frames, detections and their time, events). */
  stats(): Record<string, CameraAnalyser['stats']>;
  stop(): Promise<void>;
}

interface Camera {
  source: CameraSource;
  settings: CameraEventSettings;
  analyser: CameraAnalyser;
  feed: FrameFeed | undefined;
  restart: NodeJS.Timeout | undefined;
  state: CameraAnalysisStatus['state'];
  reason: string | undefined;
  /** Why the last feed ended, until frames come again. */
  paused: string | undefined;
  framesSeen: boolean;
}

export function startEventAnalysis(opts: EventAnalysisOptions): EventAnalysis {
  const log = opts.log ?? ((m: string) => console.log(`[events] ${m}`));
  const now = opts.now ?? Date.now;
  const timing: EventTiming = { ...DEFAULT_TIMING, ...opts.timing };
  const fps = opts.fps ?? ANALYSIS_FPS;
  const cameras = new Map<string, Camera>();
  let stopped = false;

  // One detector for every camera, loaded when a camera first needs it; one detection at a time
  // (the WASM backend runs on one thread: a second would only queue).
  let detector: Promise<Detector> | undefined;
  let modelError: string | undefined;
  let busy = false;
  const detectorLoaded = (): Promise<Detector> => {
    detector ??= (opts.loadDetector ?? (() => loadDetectorInWorker()))().catch((err: Error) => {
      modelError = err.message;
      log(`the object detector did not load: ${err.message}; cameras go on with motion only, video and recording are not affected`);
      for (const cam of cameras.values()) refresh(cam);
      throw err;
    });
    return detector;
  };
  const detect = async (rgb: Uint8Array, width: number, height: number) => {
    if (busy || modelError) return undefined;
    busy = true;
    try {
      return await (await detectorLoaded()).detect(rgb, width, height);
    } catch {
      return undefined;
    } finally {
      busy = false;
    }
  };

  const want = (cam: Camera): { run: boolean; state: CameraAnalysisStatus['state']; reason?: string } => {
    const s = cam.settings;
    if (opts.analysed && !opts.analysed(cam.source.camera.cameraId)) return { run: false, state: 'off', reason: 'this ship does not analyse this camera' };
    if (!s.enabled) return { run: false, state: 'off' };
    try {
      if (!inSchedule(s.schedule, now())) return { run: false, state: 'outsideSchedule' };
    } catch (err) {
      const reason = err instanceof UnknownTimeZoneError ? err.message : String(err);
      return { run: false, state: 'off', reason };
    }
    if (!cam.source.analysisFrames) return { run: false, state: 'idle', reason: 'this camera gives no pictures to analyse' };
    if (modelError && cam.analyser.wantsDetector) return { run: true, state: 'modelFailed', reason: modelError };
    return { run: true, state: cam.framesSeen ? 'running' : 'idle' };
  };

  const startFeed = (cam: Camera) => {
    if (cam.feed || stopped || !cam.source.analysisFrames) return;
    if (cam.analyser.wantsDetector) void detectorLoaded().catch(() => undefined);
    cam.feed = cam.source.analysisFrames({
      fps,
      maxWidth: ANALYSIS_MAX_WIDTH,
      now,
      onFrame: (frame: AnalysisFrame) => {
        if (!cam.framesSeen) {
          cam.framesSeen = true;
          cam.paused = undefined;
          refresh(cam);
        }
        cam.analyser.frame(frame);
      },
      onEnd: (reason: string) => {
        cam.feed = undefined;
        cam.framesSeen = false;
        void cam.analyser.flush();
        if (stopped) return;
        log(`camera ${cam.source.camera.cameraId}: analysis paused: ${reason}`);
        cam.paused = reason;
        clearTimeout(cam.restart);
        cam.restart = setTimeout(() => {
          cam.restart = undefined;
          refresh(cam);
        }, opts.restartAfterMs ?? 5000);
        cam.restart.unref();
        refresh(cam);
      },
    });
  };

  const stopFeed = (cam: Camera) => {
    clearTimeout(cam.restart);
    cam.restart = undefined;
    if (!cam.feed) return;
    cam.feed.stop();
    cam.feed = undefined;
    cam.framesSeen = false;
    void cam.analyser.flush();
  };

  /** Starts or stops a camera's feed as its settings and schedule say, and sets its status. */
  function refresh(cam: Camera): void {
    if (stopped) return;
    const w = want(cam);
    // A feed that ended waits for its restart timer before it starts again.
    if (w.run && !cam.feed && !cam.restart) startFeed(cam);
    else if (!w.run) stopFeed(cam);
    const was = cam.state;
    cam.state = w.state;
    // Waiting for pictures, say why when a feed ended.
    cam.reason = w.reason ?? (w.state === 'idle' ? cam.paused : undefined);
    if (was !== cam.state && (cam.state === 'modelFailed' || was === 'modelFailed')) log(`camera ${cam.source.camera.cameraId}: analysis ${cam.state}${cam.reason ? `: ${cam.reason}` : ''}`);
  }

  for (const source of opts.cameras) {
    const cameraId = source.camera.cameraId;
    const settings = opts.settings(cameraId);
    const cam: Camera = {
      source,
      settings,
      analyser: new CameraAnalyser({ cameraId, settings, timing, detect, emit: (event, jpeg) => opts.sink.add(event, jpeg), log }),
      feed: undefined,
      restart: undefined,
      state: 'idle',
      reason: undefined,
      paused: undefined,
      framesSeen: false,
    };
    cameras.set(cameraId, cam);
  }
  for (const cam of cameras.values()) refresh(cam);
  const scheduleTimer = setInterval(() => {
    for (const cam of cameras.values()) refresh(cam);
  }, opts.scheduleEveryMs ?? 30_000);
  scheduleTimer.unref();

  return {
    apply(cameraId, settings) {
      const cam = cameras.get(cameraId);
      if (!cam) return;
      cam.settings = settings;
      cam.analyser.apply(settings);
      refresh(cam);
    },
    status() {
      return [...cameras.values()].map((cam) => ({ cameraId: cam.source.camera.cameraId, state: cam.state, ...(cam.reason !== undefined ? { reason: cam.reason } : {}) }));
    },
    stats() {
      return Object.fromEntries([...cameras].map(([id, cam]) => [id, { ...cam.analyser.stats }]));
    },
    async stop() {
      stopped = true;
      clearInterval(scheduleTimer);
      for (const cam of cameras.values()) stopFeed(cam);
      await Promise.all([...cameras.values()].map((cam) => cam.analyser.settled()));
      const d = await detector?.catch(() => undefined);
      d?.dispose();
    },
  };
}

/** A sink that keeps events in memory (tests, the benchmark). */
export class MemoryEventSink implements EventSink {
  readonly events: { event: ShipEvent; jpeg: Buffer }[] = [];
  private waiters: (() => void)[] = [];

  async add(event: ShipEvent, jpeg: Buffer): Promise<void> {
    this.events.push({ event, jpeg });
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when `n` events are held, or rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs: number): Promise<void> {
    if (this.events.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.events.length} of ${n} events within ${timeoutMs} ms`)), timeoutMs);
      const check = () => {
        if (this.events.length >= n) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }
}

export { type AnalysisFrame, type FrameFeed, type FramesRequest, frameSize, rawFrameOutputArgs, sessionFrames, startRawFrames } from './frames.ts';
export { type Detection, type Detector, centernetDir, loadDetector, loadDetectorInWorker } from './detector.ts';
export { CameraAnalyser, DEFAULT_TIMING, type EventTiming } from './camera-analyser.ts';
export { inSchedule } from './schedule.ts';
export { eventPicture } from './picture.ts';

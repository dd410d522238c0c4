import { randomBytes } from 'node:crypto';
import type { CameraEventSettings, EventClass, ShipEvent } from '@ship-cctv/protocol';
import type { Detection } from './detector.ts';
import type { AnalysisFrame } from './frames.ts';
import { MotionDetector, type MotionResult, type RelBox } from './motion.ts';
import { eventPicture } from './picture.ts';
import { maskedAt, zoneAt } from './regions.ts';

/**
 * One camera's events from its analysed frames. Motion opens a candidate; while things move, the
 * detector looks at the moving region (at most once every `detectEveryMs`); a detection of one of
 * the camera's classes at its minimum score or more, not in a mask and (with zones) with its foot
 * in a zone, confirms the event. A confirmed event is handed on `emitAfterMs` later (or when
 * things stop moving, if sooner) — by default at once, as the confirming detection ends, so shore
 * hears of it within seconds — with the best-scored frame seen by then as its picture; what goes on moving after that belongs to the same event until
 * nothing moved for `quietMs` or it has lasted `maxEventMs`, then the next motion opens a new one.
 * An event that went on after it was sent (seen a second or more later, or a class more) is handed
 * on again once it is over, with its later end and classes and the same picture.
 * Motion that nothing confirmed makes a `motion` event only when the camera's classes include it.
 */
export interface EventTiming {
  /** Least time between two detections on one camera. */
  detectEveryMs: number;
  /**
   * While detections find nothing the camera wants (a flag, a swell, the synthetic camera's
   * square), the time between them doubles up to this; a find, or a new event, brings it back.
   * By default no more than `detectEveryMs`: a person who walks in while a flag waves is looked
   * for as soon as one who walks into a still picture (the time to shore's notice counts it).
   */
  detectIdleMaxMs: number;
  /**
   * A confirmed event is sent this long after its first detection (or sooner when things stop);
   * 0: as soon as the detection that confirmed it ends, with that detection's frame as its picture.
   */
  emitAfterMs: number;
  /** Nothing moved this long: the event is over. */
  quietMs: number;
  /**
   * A confirmed event whose things were not seen this long is over too, though other things
   * still move (a person who left while a flag waves): the next person makes a new event.
   */
  goneMs: number;
  /** An event lasts at most this long; motion after it opens a new one. */
  maxEventMs: number;
  /** The recording span of an event reaches this far before its start and after its end. */
  prerollMs: number;
  postrollMs: number;
}

export const DEFAULT_TIMING: EventTiming = { detectEveryMs: 1500, detectIdleMaxMs: 1500, emitAfterMs: 0, quietMs: 4000, goneMs: 6000, maxEventMs: 60_000, prerollMs: 5000, postrollMs: 5000 };

/** Runs the detector on a crop of a frame; resolves undefined when the detector is busy or not loaded. */
export type DetectFn = (rgb: Uint8Array, width: number, height: number) => Promise<Detection[] | undefined>;

export interface Candidate {
  id: string;
  start: number;
  lastMotion: number;
  /** Best score of each class seen. */
  classes: Map<EventClass, number>;
  confirmedAt?: number;
  /** The last frame a detection of a wanted class was in. */
  lastSeen?: number;
  /** The last frame a detection found nothing wanted in (the thing came after it). */
  lastMissed?: number;
  best?: { frame: AnalysisFrame; score: number; zone?: string };
  /** The frame with the most motion (the picture of a motion-only event). */
  mostMotion?: { frame: AnalysisFrame; cells: number; zone?: string };
  sent: boolean;
  /** The record sent and its picture: a later record of the event (it went on) goes with the same picture. */
  sentRecord?: { event: ShipEvent; jpeg: Buffer };
  /** Nothing moves any more (or it lasted too long): it is sent or dropped once no detection on it runs. */
  closed: boolean;
}

/** A sent event seen this much longer is sent again with its later end. */
export const AMEND_AFTER_MS = 1000;

/** The classes seen, best first, scores to three places. */
function classList(classes: ReadonlyMap<EventClass, number>): { class: EventClass; score: number }[] {
  return [...classes].sort((a, b) => b[1] - a[1]).map(([c, score]) => ({ class: c, score: Math.round(score * 1000) / 1000 }));
}

/** An event's id: the camera (in the id's alphabet), its start and a random part. */
export function eventIdOf(cameraId: string, start: number): string {
  const camera = cameraId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48);
  return `${camera}-${start.toString(36)}-${randomBytes(5).toString('hex')}`;
}

/**
 * The square-ish part of a frame the detector looks at for a moving box: the box with room around
 * it, at least half the frame's height on a side, within the frame (pixels).
 */
export function cropAround(box: RelBox, width: number, height: number): { x: number; y: number; w: number; h: number } {
  const cx = (box.x + box.w / 2) * width;
  const cy = (box.y + box.h / 2) * height;
  const side = Math.max(box.w * width, box.h * height) * 1.5;
  const w = Math.min(width, Math.max(side, height / 2, box.w * width * 1.2));
  const h = Math.min(height, Math.max(side, height / 2, box.h * height * 1.2));
  const x = Math.round(Math.min(Math.max(0, cx - w / 2), width - w));
  const y = Math.round(Math.min(Math.max(0, cy - h / 2), height - h));
  return { x, y, w: Math.round(w), h: Math.round(h) };
}

/** The pixels of a crop of an RGB frame. */
export function cropRgb(frame: AnalysisFrame, crop: { x: number; y: number; w: number; h: number }): Uint8Array {
  const out = new Uint8Array(crop.w * crop.h * 3);
  for (let r = 0; r < crop.h; r++) {
    const from = ((crop.y + r) * frame.width + crop.x) * 3;
    out.set(frame.rgb.subarray(from, from + crop.w * 3), r * crop.w * 3);
  }
  return out;
}

export interface CameraAnalyserOptions {
  cameraId: string;
  settings: CameraEventSettings;
  timing: EventTiming;
  detect: DetectFn;
  emit(event: ShipEvent, jpeg: Buffer): Promise<void>;
  log(message: string): void;
}

export class CameraAnalyser {
  private settings: CameraEventSettings;
  private readonly motion: MotionDetector;
  private event: Candidate | undefined;
  private lastDetectAt = -Infinity;
  private detectGapMs: number;
  private detecting = false;
  /** The time of the latest frame (a detection ending between frames decides by it). */
  private lastFrameAt = -Infinity;
  /** Pictures being made and events being handed on: settled() waits for them. */
  private readonly pending = new Set<Promise<void>>();
  /** Detections made and how long they took (the benchmark's figures). */
  readonly stats = { frames: 0, motionFrames: 0, detections: 0, detectMs: 0, events: 0, amended: 0 };

  constructor(private readonly opts: CameraAnalyserOptions) {
    this.settings = opts.settings;
    this.motion = new MotionDetector(opts.settings);
    this.detectGapMs = opts.timing.detectEveryMs;
  }

  apply(settings: CameraEventSettings): void {
    this.settings = settings;
    this.motion.apply(settings);
  }

  /** Whether the detector is wanted at all (a camera that asks for `motion` alone needs none). */
  get wantsDetector(): boolean {
    return this.settings.classes.some((c) => c !== 'motion');
  }

  /** One analysed frame. Returns the motion it showed (tests and the benchmark read it). */
  frame(frame: AnalysisFrame): MotionResult {
    this.stats.frames++;
    const m = this.motion.update(frame.rgb, frame.width, frame.height);
    const t = frame.time;
    this.lastFrameAt = t;
    let ev = this.event;
    const { quietMs, goneMs, maxEventMs } = this.opts.timing;
    if (ev && (t - ev.lastMotion >= quietMs || t - ev.start >= maxEventMs || (ev.lastSeen !== undefined && t - ev.lastSeen >= goneMs))) {
      this.track(this.close(ev));
      ev = undefined;
    }
    if (m.moving) {
      this.stats.motionFrames++;
      if (!ev) {
        ev = { id: eventIdOf(this.opts.cameraId, t), start: t, lastMotion: t, classes: new Map(), sent: false, closed: false };
        this.event = ev;
        this.detectGapMs = this.opts.timing.detectEveryMs;
      }
      ev.lastMotion = t;
      if (!ev.mostMotion || m.cells > ev.mostMotion.cells) ev.mostMotion = { frame, cells: m.cells, ...(m.zone !== undefined ? { zone: m.zone } : {}) };
      if (m.box && this.wantsDetector && !this.detecting && t - this.lastDetectAt >= this.detectGapMs) this.track(this.detect(ev, frame, m.box));
    }
    if (ev && this.due(ev, t)) this.track(this.send(ev));
    return m;
  }

  /** The feed stopped (settings off, camera gone, agent stopping): what is open ends now. */
  async flush(): Promise<void> {
    const ev = this.event;
    if (ev) this.track(this.close(ev));
    await this.settled();
  }

  /** Resolves when no detection, picture or hand-over is under way. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private async detect(ev: Candidate, frame: AnalysisFrame, box: RelBox): Promise<void> {
    this.detecting = true;
    const before = this.lastDetectAt;
    this.lastDetectAt = frame.time;
    try {
      const crop = cropAround(box, frame.width, frame.height);
      const started = performance.now();
      const found = await this.opts.detect(cropRgb(frame, crop), crop.w, crop.h);
      if (found) {
        this.stats.detections++;
        this.stats.detectMs += performance.now() - started;
        const seen = found.filter((d) => this.take(ev, frame, crop, d)).length;
        if (seen === 0 && ev.confirmedAt === undefined) ev.lastMissed = frame.time;
        const { detectEveryMs, detectIdleMaxMs } = this.opts.timing;
        this.detectGapMs = seen > 0 ? detectEveryMs : Math.min(detectIdleMaxMs, Math.max(detectEveryMs, this.detectGapMs * 2));
      } else {
        // The detector was busy with another camera (or is not there): this camera asks again at its next frame.
        this.lastDetectAt = before;
      }
    } catch (err) {
      this.opts.log(`camera ${this.opts.cameraId}: detection failed: ${(err as Error).message}`);
    } finally {
      this.detecting = false;
    }
    // The event ended while the detector looked: it is decided now.
    if (ev.closed) await this.finish(ev);
    // Confirmed and due (at once by default): it goes now rather than at the next frame.
    else if (this.due(ev, this.lastFrameAt)) await this.send(ev);
  }

  /** A confirmed event not yet sent whose wait (`emitAfterMs` from its first detection) is over at `t`. */
  private due(ev: Candidate, t: number): boolean {
    return !ev.sent && ev.confirmedAt !== undefined && t - ev.confirmedAt >= this.opts.timing.emitAfterMs;
  }

  /** A detection in a crop: counted (true) when it is of a wanted class and score, outside masks, in a zone. */
  private take(ev: Candidate, frame: AnalysisFrame, crop: { x: number; y: number; w: number; h: number }, d: Detection): boolean {
    const s = this.settings;
    if (!s.classes.includes(d.class) || d.score < s.minScore) return false;
    // Where it stands: the middle of its box's bottom edge, in the whole frame.
    const footX = (crop.x + (d.box.x + d.box.w / 2) * crop.w) / frame.width;
    const footY = (crop.y + (d.box.y + d.box.h) * crop.h) / frame.height;
    const centreY = (crop.y + (d.box.y + d.box.h / 2) * crop.h) / frame.height;
    if (maskedAt(s, footX, centreY)) return false;
    const zone = zoneAt(s, footX, Math.min(footY, 0.999)) ?? zoneAt(s, footX, centreY);
    if (zone === undefined) return false;
    ev.classes.set(d.class, Math.max(ev.classes.get(d.class) ?? 0, d.score));
    ev.lastSeen = frame.time;
    if (ev.confirmedAt === undefined) {
      ev.confirmedAt = frame.time;
      // Things moved before (a wave, a flag): the event begins after the last look that saw nothing.
      if (ev.lastMissed !== undefined) ev.start = Math.max(ev.start, ev.lastMissed);
    }
    if (!ev.best || d.score > ev.best.score) ev.best = { frame, score: d.score, ...(zone !== null ? { zone } : {}) };
    return true;
  }

  private async close(ev: Candidate): Promise<void> {
    if (this.event === ev) this.event = undefined;
    ev.closed = true;
    // A detection still running on it may yet confirm it: it decides when it ends.
    if (!this.detecting) await this.finish(ev);
  }

  /** A closed event: sent when confirmed; else a motion event, when the camera asks for those. */
  private async finish(ev: Candidate): Promise<void> {
    if (ev.sent) return this.amend(ev);
    if (ev.confirmedAt !== undefined) return this.send(ev);
    if (!this.settings.classes.includes('motion') || !ev.mostMotion) return;
    ev.classes.set('motion', 1);
    ev.lastSeen = ev.lastMotion;
    await this.send(ev);
  }

  private async send(ev: Candidate): Promise<void> {
    if (ev.sent) return;
    ev.sent = true;
    const shown = ev.best ?? ev.mostMotion;
    if (!shown) return;
    const { frame } = shown;
    // What is known now: detections that come while the picture is made belong to it no more.
    const end = Math.max(ev.start, ev.lastSeen ?? ev.lastMotion);
    const classes = classList(ev.classes);
    try {
      const picture = await eventPicture(frame.rgb, frame.width, frame.height);
      const event: ShipEvent = {
        eventId: ev.id,
        cameraId: this.opts.cameraId,
        start: ev.start,
        end,
        classes,
        ...(shown.zone !== undefined ? { zone: shown.zone } : {}),
        picture: { bytes: picture.jpeg.length, width: picture.width, height: picture.height, sha256: picture.sha256, time: frame.time },
        recording: { from: Math.max(0, ev.start - this.opts.timing.prerollMs), to: end + this.opts.timing.postrollMs },
      };
      this.stats.events++;
      ev.sentRecord = { event, jpeg: picture.jpeg };
      await this.opts.emit(event, picture.jpeg);
    } catch (err) {
      this.opts.log(`camera ${this.opts.cameraId}: event ${ev.id} not kept: ${(err as Error).message}`);
      return;
    }
    // It ended while its picture was made: what it went on to be goes now.
    if (ev.closed) await this.amend(ev);
  }

  /**
   * A sent event that is over, having gone on after it was sent (seen a second or more later, or
   * a class or score more): its later record goes to the outbox with the same picture, and shore
   * moves its end, its recording span and its classes.
   */
  private async amend(ev: Candidate): Promise<void> {
    const record = ev.sentRecord;
    if (!record) return;
    const sent = record.event;
    const end = Math.max(sent.end, ev.lastSeen ?? ev.lastMotion);
    const classes = classList(ev.classes);
    const more = classes.some((c) => c.score > (sent.classes.find((x) => x.class === c.class)?.score ?? -1));
    if (end - sent.end < AMEND_AFTER_MS && !more) return;
    const event: ShipEvent = { ...sent, end, classes, recording: { from: sent.recording.from, to: Math.max(sent.recording.to, end + this.opts.timing.postrollMs) } };
    try {
      await this.opts.emit(event, record.jpeg);
      ev.sentRecord = { event, jpeg: record.jpeg };
      this.stats.amended++;
    } catch (err) {
      this.opts.log(`camera ${this.opts.cameraId}: the later record of event ${ev.id} not kept: ${(err as Error).message}`);
    }
  }
}

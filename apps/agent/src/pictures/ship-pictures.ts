import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentMessage,
  BINARY_KIND,
  INBOX_ON_DEMAND_VERSION,
  type PictureFailure,
  type ShoreMessageOf,
  encodePictureChunk,
  encodeStreamFrame,
  encodeThumb,
  PICTURE_CHUNK_HEADER_BYTES,
  type PictureOrigin,
  type SnapshotTaskSpec,
  type TaskShotReport,
  taskPictureId,
} from '@ship-cctv/protocol';
import type { KindHandler } from '../agent-link/router.ts';
import { NoRecording } from '../camera-source.ts';
import type { CameraSources } from '../camera-sources.ts';
import type { CameraConfig } from '../cameras.ts';
import { BACKGROUND_FRAME_BYTES } from '../uplink/scheduler.ts';
import { type Shot, ShotError, type ShotSize } from './capture.ts';
import { Outbox } from './outbox.ts';
import { PictureStore, type PictureStoreOptions, type StoredPicture, listEntry, pictureMeta } from './picture-store.ts';
import { TaskRunner } from './task-runner.ts';
import { OfferInFlight, sendFromOffset } from '../uplink/offer-in-flight.ts';

type ShoreMsg = ShoreMessageOf<'pictures'>;

/** How the pictures reach shore: answers as control messages, bytes in the uplink's pictures class. */
export interface PicturesLink {
  sendJson(message: AgentMessage): void;
  sendBinary(frame: Uint8Array): void;
}

export interface ShipPicturesOptions {
  /** The agent's data directory: pictures under `pictures/`, the outbox in `pictures/outbox.json`. Absent: a temporary folder. */
  dataDir?: string;
  store?: PictureStoreOptions;
  /** Shore answers an offer, and says `stored` after the last byte, within this; else the picture is offered again. Default 120 s. */
  answerTimeoutMs?: number;
  now?: () => number;
  /** Takes the picture (tests replace it). Default: the camera's source (camera-source.ts). */
  shoot?: (camera: CameraConfig, at: number | undefined, size: ShotSize) => Promise<Shot & { time: number }>;
  /** How often the snapshot tasks look for due shots. Default 5 s. */
  taskTickMs?: number;
}

/** What a capture asks for: a picture id, a camera, the box to fit, a past time or now, whose. */
interface CaptureRequest {
  pictureId: string;
  cameraId: string;
  width: number;
  height: number;
  at?: number | undefined;
  origin: PictureOrigin;
  taskId?: string | undefined;
}

/** Picture bytes per link frame: with its headers a frame stays within BACKGROUND_FRAME_BYTES. */
const CHUNK_BYTES = BACKGROUND_FRAME_BYTES - PICTURE_CHUNK_HEADER_BYTES - 5;

/**
 * The ship's pictures: taken on shore's request (a camera now, or the recorder at a past time),
 * kept in the picture store whether or not the link is up, listed with thumbnails, and sent to
 * shore from a durable outbox over the inbox stream shore opens on each connection (see
 * packages/protocol/src/link/pictures.ts for the exchange). One picture crosses at a time, in
 * BACKGROUND_FRAME_BYTES frames below live video in the uplink's priorities.
 */
export class ShipPictures implements KindHandler<'pictures'> {
  readonly store: PictureStore;
  readonly outbox: Outbox;
  private readonly now: () => number;
  private readonly shoot: NonNullable<ShipPicturesOptions['shoot']>;
  /** A folder made for this run only (no data directory): removed by close(). */
  private readonly scratch: string | undefined;
  private link: PicturesLink | undefined;
  private inbox: number | undefined;
  /** The link version shore welcomed this connection with (from 4 the inbox opens on demand). */
  private protocol: number | undefined;
  /** Asked shore for the inbox (`outbox`) on this connection and not yet given one. */
  private asked = false;
  /**
   * Said `idle` on the inbox: nothing new goes on it (only answers) until shore says it is closed,
   * so nothing is sent on an inbox shore may have closed; what comes meanwhile goes on the next one.
   */
  private idleSent = false;
  /** Every task's shots were reported on this connection (done on its first inbox). */
  private shotsTold = false;
  /** Shots that happened with no inbox open, reported when one opens (on-demand inboxes). */
  private readonly unreported: { taskId: string; shots: TaskShotReport[] }[] = [];
  /** The picture offered or on its way, given up when shore does not answer in time. */
  private readonly sending: OfferInFlight;
  /** Shots run one at a time: a burst of requests does not start a burst of ffmpeg processes. */
  private shots: Promise<unknown> = Promise.resolve();
  /** The snapshot tasks shore handed over, run on the ship's clock (pictures/tasks.json). */
  readonly tasks: TaskRunner;

  constructor(
    private readonly sources: CameraSources,
    opts: ShipPicturesOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    // No answer: offered again (shore says where to resume).
    this.sending = new OfferInFlight(opts.answerTimeoutMs ?? 120_000, () => this.pump());
    this.scratch = opts.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'ship-pictures-'));
    const dir = opts.dataDir ? join(opts.dataDir, 'pictures') : (this.scratch ?? '');
    this.store = new PictureStore(dir, { now: this.now, ...opts.store });
    this.outbox = new Outbox(opts.dataDir ? join(dir, 'outbox.json') : undefined);
    this.shoot = opts.shoot ?? ((camera, at, size) => this.sourceOf(camera).shoot(at, size, this.now()));
    // Pictures retention took while the agent was down leave the outbox.
    for (const id of [...this.outbox.all]) if (!this.store.get(id)) this.outbox.remove(id);
    this.tasks = new TaskRunner(opts.dataDir ? join(dir, 'tasks.json') : undefined, {
      now: this.now,
      tickMs: opts.taskTickMs,
      shoot: (task, cameraId, index) => this.shootForTask(task, cameraId, index),
      report: (taskId, shots) => this.reportShots(taskId, shots),
    });
  }

  /** The agent starts: the snapshot tasks run (link or no link). */
  start(): void {
    this.tasks.start();
  }

  async stop(): Promise<void> {
    await this.tasks.stop();
    this.close();
  }

  /** The agent stops: a folder made for this run only goes. */
  close(): void {
    this.detach();
    if (this.scratch) rmSync(this.scratch, { recursive: true, force: true });
  }

  /** The link is up: answers and bytes go out on it (sending starts once shore opens the inbox). */
  attach(link: PicturesLink): void {
    this.link = link;
  }

  /** The link is gone: what was on its way is offered again on the next connection. */
  detach(): void {
    this.link = undefined;
    this.inbox = undefined;
    this.protocol = undefined;
    this.asked = false;
    this.idleSent = false;
    this.shotsTold = false;
    this.unreported.length = 0;
    this.sending.clear();
  }

  /**
   * Shore welcomed the hello. From link version 4 the inbox opens on demand: the ship asks for it
   * now when it has pictures to send or holds tasks (shore hands over the current set, which may
   * have changed while the link was down); shore opens it by itself when it has tasks for the ship.
   */
  welcomed(protocol: number): void {
    this.protocol = protocol;
    if (this.outbox.peek() !== undefined || this.tasks.tasks.length > 0) this.ask();
  }

  private get onDemand(): boolean {
    return (this.protocol ?? 0) >= INBOX_ON_DEMAND_VERSION;
  }

  /** Asks shore to open the inbox (once until it does; version 4). */
  private ask(): void {
    if (!this.link || !this.onDemand || this.inbox !== undefined || this.asked) return;
    this.asked = true;
    this.send({ type: 'outbox', kind: 'pictures' });
  }

  /** Nothing offered, waiting or unreported: shore may close the inbox (version 4). */
  private settle(): void {
    if (!this.onDemand || this.inbox === undefined || this.idleSent) return;
    if (this.sending.id !== undefined || this.outbox.peek() !== undefined || this.unreported.length > 0) return;
    this.idleSent = true;
    this.send({ type: 'pictures.idle', streamId: this.inbox });
  }

  message(msg: ShoreMsg): void {
    switch (msg.type) {
      case 'pictures.inbox':
        this.inbox = msg.streamId;
        this.asked = false;
        this.idleSent = false;
        this.sending.clear();
        if (!this.shotsTold) {
          // What shore may have missed while the link was down (once a connection).
          this.shotsTold = true;
          this.unreported.length = 0;
          for (const task of this.tasks.tasks) this.reportShots(task.taskId, [...this.tasks.shots(task.taskId)]);
        }
        for (const { taskId, shots } of this.unreported.splice(0)) this.reportShots(taskId, shots);
        this.pump();
        return this.settle();
      case 'pictures.inboxClosed':
        if (msg.streamId !== this.inbox) return;
        // Shore closed it on our `idle`: what came meanwhile goes on the next one.
        this.inbox = undefined;
        this.idleSent = false;
        this.sending.clear();
        if (this.unreported.length > 0) this.ask();
        return this.pump();
      case 'pictures.tasks': {
        if (msg.streamId !== this.inbox) return;
        const held = this.tasks.replace(msg.tasks);
        this.send({ type: 'pictures.tasksHeld', streamId: msg.streamId, taskIds: held });
        return this.settle();
      }
      case 'pictures.take':
        void this.take(msg);
        return;
      case 'pictures.list':
        return this.list(msg);
      case 'pictures.fetch':
        return this.fetch(msg);
      case 'pictures.resume':
        return this.resume(msg.streamId, msg.pictureId, msg.offset);
      case 'pictures.stored':
        if (msg.streamId !== this.inbox) return;
        this.outbox.remove(msg.pictureId);
        if (this.sending.id === msg.pictureId) this.sending.clear();
        this.pump();
        return this.settle();
      case 'pictures.storing':
        // Shore holds it whole and stores it later: wait for its `stored` (it stays in the outbox)
        // rather than send it again; past the answer time it is offered again, which costs no bytes.
        if (msg.streamId !== this.inbox || this.sending.id !== msg.pictureId) return;
        this.sending.answered();
        return;
      case 'pictures.rejected':
        if (msg.streamId !== this.inbox || this.sending.id !== msg.pictureId) return;
        this.sending.clear();
        this.pump();
        return this.settle();
    }
  }

  /** Takes a picture and puts it in the outbox; `origin` manual goes before task pictures. */
  async take(msg: Extract<ShoreMsg, { type: 'pictures.take' }>): Promise<StoredPicture | undefined> {
    const { streamId } = msg;
    const result = await this.capture(msg);
    if ('code' in result) return this.fail(streamId, result.code, result.message);
    this.send({ type: 'pictures.taken', streamId, picture: pictureMeta(result) });
    return result;
  }

  /** Shot `index` of a task for one camera (a picture id fixed by the shot: taken twice, it is one picture). */
  private async shootForTask(task: SnapshotTaskSpec, cameraId: string, index: number): Promise<{ pictureId: string } | { reason: string }> {
    const pictureId = taskPictureId(task.taskId, index, Math.max(0, task.cameraIds.indexOf(cameraId)));
    const result = await this.capture({ pictureId, cameraId, width: task.width, height: task.height, origin: 'task', taskId: task.taskId });
    return 'code' in result ? { reason: result.message } : { pictureId };
  }

  private reportShots(taskId: string, shots: TaskShotReport[]): void {
    if (shots.length === 0) return;
    if (this.inbox === undefined || this.idleSent) {
      // On demand: kept until an inbox opens (without a link, or before version 4, the next inbox reports every shot).
      if (!this.link || !this.onDemand) return;
      if (this.shotsTold) this.unreported.push({ taskId, shots });
      return this.ask();
    }
    for (let i = 0; i < shots.length; i += 5_000) this.send({ type: 'pictures.shots', streamId: this.inbox, taskId, shots: shots.slice(i, i + 5_000) });
  }

  /** Takes a picture into the store and the outbox (one shot at a time), or says why not. */
  private async capture(req: CaptureRequest): Promise<StoredPicture | { code: PictureFailure; message: string }> {
    const existing = this.store.get(req.pictureId);
    // Asked again (shore retried, or a task's shot after a restart): the same picture, not a second one.
    if (existing) return existing;
    const camera = this.sources.get(req.cameraId)?.camera;
    if (!camera) return { code: 'notFound', message: `camera ${req.cameraId} is not on this ship` };
    const run = this.shots.then(() => this.shoot(camera, req.at, { width: req.width, height: req.height }));
    this.shots = run.catch(() => undefined);
    let shot: Shot & { time: number };
    try {
      shot = await run;
    } catch (err) {
      const code: PictureFailure = err instanceof ShotError ? (err.code === 'cameraOffline' ? 'cameraOffline' : 'failed') : err instanceof NoRecording ? 'noRecording' : 'failed';
      return { code, message: err instanceof Error ? err.message : String(err) };
    }
    const stored = this.store.add({
      meta: { pictureId: req.pictureId, cameraId: req.cameraId, time: shot.time, width: shot.width, height: shot.height, origin: req.origin, ...(req.taskId ? { taskId: req.taskId } : {}) },
      jpeg: shot.jpeg,
      thumb: shot.thumb,
    });
    this.outbox.add(req.pictureId, req.origin === 'manual', (id) => this.store.get(id)?.origin === 'manual');
    this.pump();
    return stored;
  }

  private list(msg: Extract<ShoreMsg, { type: 'pictures.list' }>): void {
    const { streamId, cameraId } = msg;
    if (!this.sources.has(cameraId)) return void this.fail(streamId, 'notFound', `camera ${cameraId} is not on this ship`);
    const { pictures, truncated } = this.store.list(cameraId, msg.from, msg.to, msg.limit);
    const thumbs = pictures.map((p) => this.store.readThumb(p.pictureId));
    this.send({
      type: 'pictures.listed',
      streamId,
      cameraId,
      truncated,
      pictures: pictures.map((p, i) => ({ ...listEntry(p), thumbBytes: thumbs[i]?.byteLength ?? 0 })),
    });
    thumbs.forEach((thumb, i) => {
      if (thumb && thumb.byteLength > 0) this.link?.sendBinary(encodeStreamFrame(BINARY_KIND.pictures, streamId, encodeThumb(i, thumb)));
    });
  }

  private fetch(msg: Extract<ShoreMsg, { type: 'pictures.fetch' }>): void {
    const { streamId, pictureId } = msg;
    if (!this.store.get(pictureId)) return void this.fail(streamId, 'notFound', `picture ${pictureId} is not on this ship (any more)`);
    if (this.sending.id === pictureId) return this.send({ type: 'pictures.queued', streamId, pictureId, position: 0 });
    // Not in the outbox (it went to shore before, or shore lost it): it goes again.
    if (!this.outbox.has(pictureId)) this.outbox.add(pictureId, true, () => false);
    else this.outbox.promote(pictureId);
    const position = this.sending.id !== undefined ? 1 : 0;
    this.send({ type: 'pictures.queued', streamId, pictureId, position });
    this.pump();
  }

  /** Offers the outbox's next picture when nothing is on its way. */
  private pump(): void {
    if (!this.link || this.sending.id !== undefined || this.idleSent) return;
    if (this.inbox === undefined) {
      if (this.outbox.peek() !== undefined) this.ask();
      return;
    }
    for (;;) {
      const next = this.outbox.peek();
      if (next === undefined) return;
      const picture = this.store.get(next);
      if (picture) {
        this.sending.start(next);
        this.send({ type: 'pictures.offer', streamId: this.inbox, picture: pictureMeta(picture) });
        return;
      }
      // Retention took it before it could be sent.
      this.outbox.remove(next);
    }
  }

  /** Shore answered an offer: the bytes from `offset` on go out, in frames, below live video. */
  private resume(streamId: number, pictureId: string, offset: number): void {
    if (streamId !== this.inbox || this.sending.id !== pictureId || !this.link) return;
    const bytes = this.store.read(pictureId);
    if (!bytes) {
      // The file is gone or no longer matches its checksum: it cannot be sent as the picture it was.
      this.outbox.remove(pictureId);
      this.sending.clear();
      return this.pump();
    }
    this.sending.answered();
    const link = this.link;
    sendFromOffset(bytes, offset, CHUNK_BYTES, (at, chunk) => link.sendBinary(encodeStreamFrame(BINARY_KIND.pictures, streamId, encodePictureChunk(at, chunk))));
  }



  private fail(streamId: number, code: PictureFailure, message: string): undefined {
    this.send({ type: 'pictures.failed', streamId, code, message: message.slice(0, 4000) });
    return undefined;
  }

  private send(message: AgentMessage): void {
    this.link?.sendJson(message);
  }

  private sourceOf(camera: CameraConfig) {
    const source = this.sources.get(camera.cameraId);
    if (!source) throw new ShotError('failed', `camera ${camera.cameraId} is not on this ship`);
    return source;
  }
}

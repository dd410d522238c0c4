import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type DefinitionModel, type MediaListMessage, type RecordConfig, cameraSource, dest } from '@ship-cctv/protocol';
import type { ExportKey } from './export-signing.ts';
import type { LiveMediaTap, LiveSource } from '../live/index.ts';
import type { InitSegment, MediaFragment } from '../../core/media/fmp4.ts';
import { CameraRecorder, type RecordingEvent } from './camera-recorder.ts';
import type { JobRunner } from '../../core/jobs/job-runner.ts';
import { ClipService } from './clip.ts';
import type { RecorderSettings } from './config.ts';
import { recoverRecordings, type RecoveryResult } from './recovery.ts';
import { applyRetention, type RetentionResult } from './retention.ts';
import { type LocalSweepResult, RETENTION_JOB_KIND, sweepRetiredFiles } from './local-retention.ts';
import { isConfigActive } from './schedule.ts';
import type { CameraInfo, RecordingStore } from './repo.ts';
import type { SharedSegments } from './shared-segments.ts';

export interface RecorderServiceDeps {
  store: RecordingStore;
  settings: RecorderSettings;
  /** Publishes a STOMP message (body JSON) to a destination. */
  publish(destination: string, body: string): void;
  log: FastifyBaseLogger;
  /** The job runner clip exports run on. */
  jobs: JobRunner;
  now?: () => number;
  /** The shared object store segments are copied to (STORAGE=nats); none keeps them on this instance's disk only. */
  shared?: SharedSegments | undefined;
  /** Told of each segment written or failed (counted in /metrics). */
  onSegment?: ((result: 'written' | 'failed') => void) | undefined;
  /** The installation's key finished clips are signed with. */
  exportKey: ExportKey;
}

/**
 * The shore recorder. It records what crosses the link anyway: while a camera's recording
 * configuration is active AND somebody watches that camera live, the live source's fMP4 is written
 * to segment files. It never asks a ship for a stream, never holds one open and never stops one —
 * the ship's uplink is the scarcest resource, so an unwatched camera is simply not recorded.
 *
 * When several definitions of one camera are watched at once, one of them is recorded (the first
 * seen); when it ends the recorder moves to another one still running, as a new recording.
 */
export class RecorderService implements LiveMediaTap {
  readonly clips: ClipService;
  private readonly sources = new Map<LiveSource, { init: InitSegment; model: DefinitionModel }>();
  private readonly recorders = new Map<string, CameraRecorder>();
  private active = new Map<string, RecordConfig>();
  private readonly cameras = new Map<string, Promise<CameraInfo | undefined>>();
  private timers: NodeJS.Timeout[] = [];
  private retentionRun: Promise<RetentionResult> | undefined;
  /** The server is closing: recordings end with it, a gap backfill refills later. */
  private serverClosing = false;

  constructor(private readonly deps: RecorderServiceDeps) {
    this.clips = new ClipService({
      root: deps.settings.dir,
      segments: (id) => deps.store.segments(id),
      keepMs: deps.settings.clipKeepMs,
      log: deps.log,
      jobs: deps.jobs,
      shared: deps.shared,
      exportKey: deps.exportKey,
    });
  }

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The shared object store segments are copied to, when the cluster has one (STORAGE=nats). */
  get shared(): SharedSegments | undefined {
    return this.deps.shared;
  }

  /** The installation's key clip exports are signed with. */
  get exportKey(): ExportKey {
    return this.deps.exportKey;
  }

  get root(): string {
    return this.deps.settings.dir;
  }

  /** Longest clip that can be exported. */
  get clipMaxMs(): number {
    return this.deps.settings.clipMaxMs;
  }

  /** Recovers after a crash, reads the configurations and starts the retention and schedule timers. */
  async start(): Promise<RecoveryResult> {
    const recovered = await recoverRecordings(this.deps.store, this.root);
    if (Object.values(recovered).some((n) => n > 0)) {
      this.deps.log.info({ recovered }, 'shore recorder: recovered after an unclean stop');
    }
    await this.reloadConfigs();
    const every = (ms: number, fn: () => Promise<unknown>, what: string) => {
      const timer = setInterval(() => void fn().catch((err: unknown) => this.deps.log.error({ err }, `shore recorder: ${what} failed`)), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.deps.settings.configEveryMs, () => this.reloadConfigs(), 'reading configurations');
    // Retention itself is a scheduled job, run once across instances (the recorder module's index.ts);
    // here each instance only drops the files on its own disk that the job retired.
    every(this.deps.settings.retentionEveryMs, () => this.sweepRetiredFiles(), 'dropping retired files');
    return recovered;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const r of this.recorders.values()) {
      r.detach();
      // With the database away, shutdown does not wait for it: recovery indexes the files.
      r.abandonIndexing();
    }
    await this.settled();
    await this.clips.close();
  }

  /** Resolves when every queued file and index operation is done. */
  async settled(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((r) => r.settled()));
  }

  /** Reads the enabled configurations again and starts or stops recordings to match. */
  async reloadConfigs(): Promise<void> {
    const configs = await this.deps.store.enabledConfigs();
    const now = this.now;
    const next = new Map<string, RecordConfig>();
    for (const c of configs) if (!next.has(c.cameraId) && isConfigActive(c, now)) next.set(c.cameraId, c);
    const cameras = new Set([...this.active.keys(), ...next.keys()]);
    this.active = next;
    for (const cameraId of cameras) this.consider(cameraId);
  }

  /** Deletes by age and budget (at most one run at a time). */
  enforceRetention(): Promise<RetentionResult> {
    this.retentionRun ??= applyRetention(this.deps.store, this.root, this.deps.settings, this.now, this.deps.shared).finally(() => {
      this.retentionRun = undefined;
    });
    return this.retentionRun;
  }

  /**
   * The retention job's pass (once across instances): deletes by age and budget, and answers the
   * start of the newest segment ever retired (`retiredUpTo`), carried from the previous run.
   */
  async runRetentionJob(): Promise<RetentionResult & { retiredUpTo: number | null }> {
    const before = await this.retiredUpTo();
    const result = await this.enforceRetention();
    const newest = result.newestStartMs;
    return { ...result, retiredUpTo: newest === undefined ? before : Math.max(before ?? newest, newest) };
  }

  /** Deletes, from this instance's own folder, the segment files retention retired (see local-retention.ts). */
  async sweepRetiredFiles(): Promise<LocalSweepResult> {
    const upTo = await this.retiredUpTo();
    if (upTo === null) return { files: 0, folders: 0 };
    const busy = new Set<string>();
    for (const r of this.recorders.values()) if (r.recording) busy.add(r.recording.recordingId);
    return sweepRetiredFiles(this.deps.store, this.root, upTo, busy);
  }

  /** Start of the newest segment the retention job ever deleted (null: none yet). */
  async retiredUpTo(): Promise<number | null> {
    const last = await this.deps.jobs.store.latestResult(RETENTION_JOB_KIND);
    return typeof last?.retiredUpTo === 'number' ? last.retiredUpTo : null;
  }

  /** Recording status messages for a new subscriber of /mediaList/{instance}: the cameras recording now. */
  async snapshot(destination: string): Promise<string[]> {
    if (!destination.startsWith('/mediaList/')) return [];
    const open = await this.deps.store.openRecordings();
    return open
      .filter((r) => dest.mediaList(cameraSource(r.sourceType, r.other, r.shipName).instanceId) === destination)
      .map((r) => JSON.stringify(recordMessage(r.cameraId, r.recordConfigId, r.start, null)));
  }

  // LiveMediaTap ---------------------------------------------------------------------------------

  init(source: LiveSource, init: InitSegment, model: DefinitionModel): void {
    const known = this.sources.get(source);
    // The same init again is the same stream: the recording goes on.
    if (known && known.model.id === model.id && Buffer.compare(known.init.data, init.data) === 0) return;
    this.sources.set(source, { init, model });
    const rec = this.recorders.get(source.cameraId);
    // A new init of the source being recorded (a restart) starts a new recording.
    if (rec?.attachedTo === source) rec.detach();
    this.consider(source.cameraId);
  }

  fragment(source: LiveSource, fragment: MediaFragment): void {
    this.recorders.get(source.cameraId)?.fragment(source, fragment);
  }

  closing(): void {
    this.serverClosing = true;
  }

  end(source: LiveSource): void {
    this.sources.delete(source);
    const rec = this.recorders.get(source.cameraId);
    if (rec?.attachedTo === source) {
      // A source stopped for good lost its last viewer: the recording ends by design, not by a fault.
      rec.detach(source.isStopped && !this.serverClosing);
      this.consider(source.cameraId);
    }
  }

  // ----------------------------------------------------------------------------------------------

  private consider(cameraId: string): void {
    const config = this.active.get(cameraId);
    let rec = this.recorders.get(cameraId);
    if (!config) {
      rec?.detach();
      return;
    }
    if (rec?.attachedTo && this.sources.has(rec.attachedTo as LiveSource)) {
      const current = rec.recording;
      if (!current || current.configId === config.id) return;
      rec.detach(); // another configuration now applies: a new recording names it
    }
    const candidate = [...this.sources].find(([s]) => s.cameraId === cameraId);
    if (!candidate) return;
    const [source, { init, model }] = candidate;
    if (!rec) {
      rec = new CameraRecorder({
        cameraId,
        shipId: source.shipId,
        index: this.deps.store,
        root: this.root,
        segmentSeconds: this.deps.settings.segmentSeconds,
        newId: () => randomUUID(),
        now: () => this.now,
        onEvent: (event) => void this.announce(event),
        log: this.deps.log,
        shareSegment: this.deps.shared ? (relative) => this.deps.shared!.upload(this.root, relative) : undefined,
        onSegment: this.deps.onSegment,
      });
      this.recorders.set(cameraId, rec);
    }
    rec.attach(source, init, model, config.id);
  }

  private async announce(event: RecordingEvent): Promise<void> {
    let info = this.cameras.get(event.cameraId);
    if (!info) {
      info = this.deps.store.cameraInfo(event.cameraId);
      this.cameras.set(event.cameraId, info);
    }
    const camera = await info.catch(() => undefined);
    if (!camera) return;
    const { instanceId } = cameraSource(camera.sourceType, camera.other, camera.shipName);
    const message = recordMessage(event.cameraId, event.configId, event.start, event.kind === 'stopped' ? event.end : null);
    this.deps.publish(dest.mediaList(instanceId), JSON.stringify(message));
  }
}

/** The /mediaList recording status of the shore recorder (argId = record configuration id). */
export function recordMessage(cameraId: string, configId: string, start: number, end: number | null): MediaListMessage {
  return {
    sourceId: cameraId,
    // Recording implies the camera's stream is flowing; the live status message carries the real state.
    status: 'ONLINE',
    remoteRecord: end === null,
    remoteStart: start,
    remoteEnd: end,
    argId: configId,
    recorder: 'shore',
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import { type RecorderSettings, readRecorderSettings } from './config.ts';
import { RecorderService } from './recorder-service.ts';
import { RETENTION_JOB_KIND } from './local-retention.ts';
import { RecordingStore } from './repo.ts';
import { SharedSegments } from './shared-segments.ts';
import { openObjectStore, readStorageSettings, type StorageSettings } from '../../core/storage/open-store.ts';
import recordRoutes from './routes.ts';
import { loadExportKey } from './export-signing.ts';
import { RecordingGaps } from './gaps/recording-gaps.ts';
import { GapFactsRepo } from './gaps/repo.ts';

export { RecorderService } from './recorder-service.ts';
export { RecordingStore, type NewRecording, backfillDefinitionOf } from './repo.ts';
export { RECORDING_META_FILE, partialFileName, segmentFileName, syncFolder } from './segment-file.ts';
export { type RecorderSettings, readRecorderSettings } from './config.ts';
export { SharedSegments } from './shared-segments.ts';
export { RecordingGaps, type BackfillPendingSource } from './gaps/recording-gaps.ts';
export { type ExportKey, loadExportKey, parsePublicKey, verifyExport, exportPublicKeyFile } from './export-signing.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shore recorder: records watched live streams of channels with an active configuration. */
    recorder: RecorderService;
    recordings: RecordingStore;
    /**
     * The causes of the shore recording's gaps: the facts kept as they are heard, and the gaps of
     * a recording query. Backfill tells it what is on its way with setBackfillPending().
     */
    recordingGaps: RecordingGaps;
  }
}

export interface RecorderPluginOptions {
  /** The server's DATA_DIR; recordings go to DATA_DIR/recordings unless RECORDINGS_DIR says otherwise. */
  dataDir?: string | undefined;
  /** Overrides of the settings read from the environment (tests). */
  settings?: Partial<RecorderSettings> | undefined;
  /** The recorder's clock (tests run recordings at chosen times). */
  now?: (() => number) | undefined;
  /** Overrides of the storage settings read from the environment (STORAGE, NATS_URL, NATS_BUCKET). */
  storage?: Partial<StorageSettings> | undefined;
}

/**
 * The shore recorder, listening to the live sources of this instance's agent link: offers
 * `app.recorder` and `app.recordings`, the recording status a new /mediaList subscriber gets
 * after the ship's, the clip-sweep and retention jobs, and the routes under /api/v1/cctv/record.
 * Also keeps the causes of its gaps (`app.recordingGaps`: link, camera and budget facts).
 * Needs live, the bus, status, playback (what the ship holds, as cached), jobs, sessions and metrics. Without a data
 * folder (tests on an in-memory database) its files go to a temporary folder removed on close.
 */
export default fp<RecorderPluginOptions>(
  async (app, opts) => {
    let scratch: string | undefined;
    const dataDir = opts.dataDir ?? (scratch = mkdtempSync(join(tmpdir(), 'ship-cctv-recorder-')));
    const settings = { ...readRecorderSettings(process.env, dataDir), ...opts.settings };
    if (scratch && !opts.settings?.dir && !process.env.RECORDINGS_DIR) settings.dir = join(scratch, 'recordings');
    const store = new RecordingStore(app.database.db);
    // STORAGE=nats: finished segments are copied to NATS JetStream's object store, readable from every instance.
    const storage = { ...readStorageSettings(process.env), ...opts.storage };
    const objects = storage.kind === 'local' ? undefined : await openObjectStore(storage, settings.dir);
    const recorder = new RecorderService({
      store,
      settings,
      publish: (destination, body) => {
        app.bus.publish(destination, body).catch((err: unknown) => app.log.warn({ err, destination }, 'shore recorder: publishing its status failed'));
      },
      log: app.log.child({ module: 'recorder' }),
      jobs: app.jobs.runner,
      shared: objects ? new SharedSegments(objects) : undefined,
      onSegment: (result) => app.metrics.product.recorderSegments.inc({ result }),
      // Clip exports are signed with the installation's Ed25519 key, kept like the session key: out of the database.
      exportKey: loadExportKey({ secret: process.env.EXPORT_SIGNING_KEY, dataDir: opts.dataDir }),
      ...(opts.now ? { now: opts.now } : {}),
    });
    await recorder.start();
    const gaps = new RecordingGaps({
      repo: new GapFactsRepo(app.database.db),
      now: opts.now ?? Date.now,
      maxAgeMs: settings.maxAgeMs,
      retiredUpTo: () => recorder.retiredUpTo(),
      shipSpans: (shipId, cameraId, start, end) => app.vod.known(shipId, cameraId, start, end),
      linkHeld: (shipId) => app.linkStreams.linkUp(shipId),
      log: app.log.child({ module: 'recorder-gaps' }),
    });
    // Finished clips are kept for a while (RECORDING_CLIP_KEEP): swept every ten minutes, once across instances.
    app.jobs.runner.register('clip.sweep', { run: async () => ({ removed: await recorder.clips.sweep() }) });
    app.jobs.schedules.add({ name: 'clip-sweep', pattern: '*/10 * * * *', kind: 'clip.sweep' });
    // Retention by age and budget every minute, once across instances; each instance then drops the retired files of its own disk.
    app.jobs.runner.register(RETENTION_JOB_KIND, {
      run: async () => {
        const result = await recorder.runRetentionJob();
        const gapFacts = await gaps.prune();
        // Every run leaves a row; the last one carries `retiredUpTo`, a day of them is plenty.
        const old = await app.jobs.runner.store.finishedBefore(RETENTION_JOB_KIND, 86_400_000);
        await app.jobs.runner.store.remove(old.map((row) => row.id));
        return { ...result, gapFacts };
      },
    });
    app.jobs.schedules.add({ name: 'recordings-retention', pattern: '* * * * *', kind: RETENTION_JOB_KIND });
    const untap = app.live.tapMedia(recorder);
    app.decorate('recorder', recorder);
    app.decorate('recordings', store);
    app.decorate('recordingGaps', gaps);
    // A link this instance lets go because it is closing is not the ship's link going down.
    let closing = false;
    const offLink = app.status.onLink((shipId, up, cameras) => {
      if (up) void gaps.linkUp(shipId, cameras);
      else if (!closing) void gaps.linkDown(shipId);
    });
    const offCamera = app.status.onCameraReport((shipId, camera) => void gaps.cameraReport(shipId, camera));
    app.addHook('preClose', async () => {
      closing = true;
      offLink();
      offCamera();
      await gaps.settled();
    });
    // The shore recorder's recording status follows the ship's, so it is what a subscriber sees last.
    app.stompSnapshot((destination) => recorder.snapshot(destination));
    app.addHook('onClose', async () => {
      untap();
      await recorder.close();
      await objects?.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });
    await app.register(recordRoutes, { prefix: '/api/v1/cctv/record' });
  },
  { name: 'recorder', dependencies: ['live', 'bus', 'status', 'playback', 'jobs', 'sessions', 'core-metrics'] },
);

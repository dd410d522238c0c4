import { join } from 'node:path';
import fp from 'fastify-plugin';
import { PictureFiles } from './picture-files.ts';
import { PictureService, type PictureServiceOptions } from './picture-service.ts';
import { EnhanceService } from './enhance/enhance-service.ts';
import pictureRoutes from './routes.ts';

export { PictureService, type PictureServiceOptions } from './picture-service.ts';
export { EnhanceService } from './enhance/enhance-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pictures: snapshots, what shore holds, what ships hold, the ships' outboxes arriving. */
    pictures: PictureService;
    /** AI super-resolution of pictures on shore (jobs run in child processes). */
    enhance: EnhanceService;
  }
}

export interface PicturesPluginOptions extends Partial<PictureServiceOptions> {
  /** The server's DATA_DIR: pictures go to DATA_DIR/pictures unless PICTURES_DIR says otherwise. */
  dataDir?: string | undefined;
  /** The pictures folder itself (tests). */
  dir?: string | undefined;
}

/** Reads the pictures' retention from the environment: PICTURE_RETENTION_DAYS, PICTURE_MAX_GIB. */
export function pictureSettingsFromEnv(env: NodeJS.ProcessEnv): Partial<PictureServiceOptions> {
  const positive = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
    return n;
  };
  const days = positive('PICTURE_RETENTION_DAYS');
  const gib = positive('PICTURE_MAX_GIB');
  return { ...(days ? { maxAgeMs: days * 86_400_000 } : {}), ...(gib ? { maxBytes: gib * 1024 ** 3 } : {}) };
}

/**
 * Pictures on shore: the service, the ships' outboxes (an inbox stream on each ship's link), and
 * an hourly retention sweep run once across instances. Files under DATA_DIR/pictures (without a
 * data folder: the recorder's scratch folder's sibling, removed on close). Offers `app.pictures`,
 * `app.enhance` and the picture, task and enhancement routes under /api/v1/cctv. Needs the fleet,
 * the ships' link, the bus, jobs, the recorder (its shared store), ship-work limits and sessions.
 */
export default fp<PicturesPluginOptions>(
  async (app, opts) => {
    const { dataDir, dir, ...settings } = opts;
    const root = dir ?? process.env.PICTURES_DIR ?? join(dataDir ?? join(app.recorder.root, '..'), 'pictures');
    // With STORAGE=nats the recorder's object store holds the pictures too, readable from every instance.
    const files = new PictureFiles(root, app.recorder.shared?.store);
    const service = new PictureService(
      app.database.db,
      app.fleet,
      app.agents,
      app.linkStreams,
      files,
      (destination, body) => {
        app.bus.publish(destination, body).catch((err: unknown) => app.log.warn({ err, destination }, 'pictures: publishing failed'));
      },
      app.log.child({ module: 'pictures' }),
      { ...pictureSettingsFromEnv(process.env), ...settings },
    );
    app.decorate('pictures', service);
    const concurrency = Number(process.env.ENHANCE_CONCURRENCY ?? 1);
    app.decorate('enhance', new EnhanceService({ files, index: service.index, jobs: app.jobs.runner, log: app.log.child({ module: 'enhance' }), concurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 1 }));
    app.jobs.runner.register('pictures.sweep', { run: async () => ({ removed: await service.sweep() }) });
    app.jobs.schedules.add({ name: 'pictures-sweep', pattern: '17 * * * *', kind: 'pictures.sweep' });
    app.addHook('preClose', async () => service.close());
    await app.register(pictureRoutes);
  },
  { name: 'pictures', dependencies: ['fleet', 'ship-link', 'bus', 'jobs', 'recorder', 'ship-work', 'sessions'] },
);

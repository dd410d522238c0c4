import fp from 'fastify-plugin';
import { JobRunner, type JobRunnerOptions } from './job-runner.ts';
import { JobStore } from './repo.ts';
import { Schedules } from './schedules.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Persisted jobs (features register handlers per kind) and schedules that enqueue them. */
    jobs: { runner: JobRunner; store: JobStore; schedules: Schedules };
  }
}

export type JobsPluginOptions = Partial<Omit<JobRunnerOptions, 'log'>>;

/**
 * The job runner of this instance on the shared jobs table, and its schedules. Stopping gives
 * running jobs back to the queue, for another instance (or this one restarted) to take up.
 */
export default fp<JobsPluginOptions>(
  async (app, opts) => {
    const store = new JobStore(app.database.db);
    const log = app.log.child({ module: 'jobs' });
    const runner = new JobRunner(store, { ...opts, log });
    const schedules = new Schedules(runner, log);
    app.decorate('jobs', { runner, store, schedules });
    runner.start();
    app.addHook('onClose', async () => {
      schedules.stop();
      await runner.stop();
    });
  },
  { name: 'jobs' },
);

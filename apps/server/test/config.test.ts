import { build } from './helpers/build.ts';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';

describe('readConfig: the settings of several instances', () => {
  it('reads INSTANCE_NAME and REDIS_PREFIX, and leaves them unset when absent', () => {
    expect(readConfig({ INSTANCE_NAME: 'shore-2', REDIS_PREFIX: 'cluster-a:' })).toMatchObject({ instanceName: 'shore-2', redisPrefix: 'cluster-a:' });
    expect(readConfig({})).toMatchObject({ instanceName: undefined, redisPrefix: undefined });
  });

  it('refuses an INSTANCE_NAME that is not a plain word, naming the variable', () => {
    for (const bad of ['shore 2', 'x'.repeat(41), 'shore/2']) expect(() => readConfig({ INSTANCE_NAME: bad })).toThrow(/INSTANCE_NAME must be/);
  });
});

describe('an instance named by INSTANCE_NAME', () => {
  it('claims ships and holds jobs as <name>-<random>, the random part keeping two instances given one name apart', async () => {
    const named = await build({ instanceName: 'shore-9' });
    try {
      expect(named.app.ownership.instanceId).toMatch(/^shore-9-[0-9a-f]{8}$/);
      expect(named.app.jobs.runner.instance).toBe(named.app.ownership.instanceId);
    } finally {
      await named.close();
    }
  }, 60_000);
});

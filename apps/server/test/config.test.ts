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

  it('reads how fast ships are taken (AGENT_ADMIT_*), unset meaning the defaults, and refuses 0', () => {
    expect(readConfig({ AGENT_ADMIT_PER_SECOND: '40', AGENT_ADMIT_BURST: '10' }).agentAdmission).toEqual({ perSecond: 40, burst: 10 });
    expect(readConfig({}).agentAdmission).toEqual({ perSecond: undefined, burst: undefined });
    expect(() => readConfig({ AGENT_ADMIT_PER_SECOND: '0' })).toThrow(/AGENT_ADMIT_PER_SECOND must be at least 1/);
    expect(() => readConfig({ AGENT_ADMIT_BURST: 'lots' })).toThrow(/AGENT_ADMIT_BURST must be a whole number/);
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

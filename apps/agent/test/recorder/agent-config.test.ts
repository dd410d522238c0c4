import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAgentConfig } from '../../src/config.ts';
import { tempDir } from '../media/helpers.ts';

const tmp = tempDir('agent-config-');
afterAll(() => tmp.remove());

const base = { shoreUrl: 'wss://shore.example', shipId: 'S1001', key: 'k', cameras: [{ cameraId: 'S1001-C01-1', source: 'rtsp://10.0.0.5/stream1' }] };
function write(name: string, body: unknown): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

describe('the agent file’s recorder settings', () => {
  it('reads the data directory and the retention limits', () => {
    const config = readAgentConfig(write('ok.json', { ...base, dataDir: '/var/lib/ship-cctv', retention: { maxAgeDays: 90, maxGiB: 200, minFreeGiB: 2 } }));
    expect(config.dataDir).toBe('/var/lib/ship-cctv');
    expect(config.retention).toEqual({ maxAgeDays: 90, maxGiB: 200, minFreeGiB: 2 });
    expect(readAgentConfig(write('plain.json', base))).not.toHaveProperty('retention');
  });

  it('names the field that is wrong', () => {
    expect(() => readAgentConfig(write('a.json', { ...base, dataDir: 3 }))).toThrow(/"dataDir" must be a directory path/);
    expect(() => readAgentConfig(write('b.json', { ...base, retention: { maxAgeDays: -1 } }))).toThrow(/"retention.maxAgeDays" must be a positive number/);
    expect(() => readAgentConfig(write('c.json', { ...base, retention: { maxGiB: 'lots' } }))).toThrow(/"retention.maxGiB" must be a positive number/);
    expect(() => readAgentConfig(write('d.json', { ...base, retention: { minFreeGiB: 0 } }))).toThrow(/"retention.minFreeGiB" must be a positive number/);
  });
});

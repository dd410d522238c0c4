import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAgentConfig } from '../../src/config.ts';
import { ShipPtz } from '../../src/ptz/ship-ptz.ts';
import { OnvifPtz } from '../../src/ptz/onvif-ptz.ts';
import { SyntheticPtz } from '../../src/ptz/synthetic-ptz.ts';
import { tempDir } from '../media/helpers.ts';

const tmp = tempDir('ptz-config-');
afterAll(() => tmp.remove());

function configWith(cameras: unknown[]): string {
  const file = join(tmp.dir, `agent-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ shoreUrl: 'ws://shore:8080', shipId: 'S1', key: 'k', cameras }));
  return file;
}

describe('PTZ cameras in the agent configuration', () => {
  it('the synthetic camera with ptz {} and a URL camera with ptz.onvif each get their driver; others none', () => {
    const config = readAgentConfig(
      configWith([
        { cameraId: 'C1', source: 'synthetic', ptz: {} },
        { cameraId: 'C2', source: 'rtsp://10.0.0.9/stream', ptz: { onvif: { hostname: '10.0.0.9', port: 8000, username: 'admin', password: 'pw', profileToken: 'p1' } } },
        { cameraId: 'C3', source: 'synthetic' },
      ]),
    );
    expect(config.cameras[1]?.ptz).toEqual({ onvif: { hostname: '10.0.0.9', port: 8000, username: 'admin', password: 'pw', profileToken: 'p1' } });
    const ship = new ShipPtz(config.cameras);
    expect(ship.drivers.get('C1')).toBeInstanceOf(SyntheticPtz);
    expect(ship.drivers.get('C2')).toBeInstanceOf(OnvifPtz);
    expect(ship.drivers.has('C3')).toBe(false);
    expect(ship.any).toBe(true);
    ship.close();
  });

  it('names the field that is wrong', () => {
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'rtsp://x/y', ptz: {} }]))).toThrow(/cameras\[0\]\.ptz needs "onvif"/);
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'rtsp://x/y', ptz: { onvif: { port: 80 } } }]))).toThrow(/cameras\[0\]\.ptz\.onvif\.hostname is missing/);
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'rtsp://x/y', ptz: { onvif: { hostname: 'h', port: 70_000 } } }]))).toThrow(/port must be a TCP port/);
  });
});

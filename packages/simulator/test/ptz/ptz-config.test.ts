import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CameraSources, readAgentConfig } from '@ship-cctv/agent';
import { OnvifPtz } from '../../../../apps/agent/src/ptz/onvif-ptz.ts';
import { ShipPtz } from '../../../../apps/agent/src/ptz/ship-ptz.ts';
import { tempDir } from '../../../../apps/agent/test/media/helpers.ts';
import { syntheticCameras } from '../../src/camera/synthetic-camera.ts';
import { SyntheticPtz } from '../../src/ptz/synthetic-ptz.ts';

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
      [syntheticCameras()],
    );
    expect(config.cameras[1]?.ptz).toEqual({ onvif: { hostname: '10.0.0.9', port: 8000, username: 'admin', password: 'pw', profileToken: 'p1' } });
    const ship = new ShipPtz(new CameraSources(config.cameras, { kinds: [syntheticCameras()] }));
    expect(ship.drivers.get('C1')).toBeInstanceOf(SyntheticPtz);
    expect(ship.drivers.get('C2')).toBeInstanceOf(OnvifPtz);
    expect(ship.drivers.has('C3')).toBe(false);
    expect(ship.any).toBe(true);
    ship.close();
  });
});

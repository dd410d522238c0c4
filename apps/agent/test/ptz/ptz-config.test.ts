import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CameraContext, CameraKind } from '../../src/camera-source.ts';
import { CameraSources } from '../../src/camera-sources.ts';
import type { CameraConfig } from '../../src/cameras.ts';
import { readAgentConfig } from '../../src/config.ts';
import { OnvifPtz } from '../../src/ptz/onvif-ptz.ts';
import type { PtzBackend } from '../../src/ptz/ptz-backend.ts';
import { ShipPtz } from '../../src/ptz/ship-ptz.ts';
import { UrlCamera } from '../../src/url-camera.ts';
import { tempDir } from '../media/helpers.ts';

const tmp = tempDir('ptz-config-');
afterAll(() => tmp.remove());

function configWith(cameras: unknown[]): string {
  const file = join(tmp.dir, `agent-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ shoreUrl: 'ws://shore:8080', shipId: 'S1', key: 'k', cameras }));
  return file;
}

/** A camera that steers itself (as the simulator's synthetic camera does) with the backend it is given. */
class DrawnCamera extends UrlCamera {
  override readonly ptz: PtzBackend | undefined;
  constructor(camera: CameraConfig, ctx: CameraContext, backend: PtzBackend) {
    super(camera, ctx);
    this.ptz = camera.ptz ? backend : undefined;
  }
}

function selfSteering(backend: PtzBackend): CameraKind {
  return { takes: (source) => source === 'drawn', steersItself: true, create: (camera, ctx) => new DrawnCamera(camera, ctx, backend) };
}

describe('PTZ cameras in the agent configuration', () => {
  it('a URL camera with ptz.onvif gets the ONVIF backend, a camera of a kind that steers itself its own with ptz {}, others none', () => {
    const closed: string[] = [];
    const own: PtzBackend = {
      move: () => Promise.resolve(),
      stop: () => Promise.resolve(),
      presets: () => Promise.resolve([]),
      setPreset: (name) => Promise.resolve({ presetId: 'p1', name }),
      gotoPreset: () => Promise.resolve(),
      removePreset: () => Promise.resolve(),
      close: () => void closed.push('own'),
    };
    const kinds = [selfSteering(own)];
    const config = readAgentConfig(
      configWith([
        { cameraId: 'C1', source: 'drawn', ptz: {} },
        { cameraId: 'C2', source: 'rtsp://10.0.0.9/stream', ptz: { onvif: { hostname: '10.0.0.9', port: 8000, username: 'admin', password: 'pw', profileToken: 'p1' } } },
        { cameraId: 'C3', source: 'rtsp://10.0.0.10/stream' },
      ]),
      kinds,
    );
    const ship = new ShipPtz(new CameraSources(config.cameras, { kinds }));
    expect(ship.drivers.get('C1')).toBe(own);
    expect(ship.drivers.get('C2')).toBeInstanceOf(OnvifPtz);
    expect(ship.drivers.has('C3')).toBe(false);
    ship.close();
    expect(closed).toEqual(['own']);
    // Without the kind, the same camera is a URL camera: ptz {} is refused.
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'drawn', ptz: {} }]))).toThrow(/cameras\[0\]\.ptz needs "onvif"/);
  });

  it('names the field that is wrong', () => {
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'rtsp://x/y', ptz: {} }]))).toThrow(/cameras\[0\]\.ptz needs "onvif"/);
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'rtsp://x/y', ptz: { onvif: { port: 80 } } }]))).toThrow(/cameras\[0\]\.ptz\.onvif\.hostname is missing/);
    expect(() => readAgentConfig(configWith([{ cameraId: 'C1', source: 'rtsp://x/y', ptz: { onvif: { hostname: 'h', port: 70_000 } } }]))).toThrow(/port must be a TCP port/);
  });
});

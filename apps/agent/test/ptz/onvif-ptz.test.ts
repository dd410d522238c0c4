import { afterEach, describe, expect, it } from 'vitest';
import { OnvifPtz } from '../../src/ptz/onvif-ptz.ts';
import { FakeOnvifCamera } from '../helpers/fake-onvif.ts';

const cameras: FakeOnvifCamera[] = [];
afterEach(async () => {
  await Promise.all(cameras.splice(0).map((c) => c.close()));
});

async function camera(): Promise<FakeOnvifCamera> {
  const c = new FakeOnvifCamera({ username: 'operator', password: 'p4ss:w0rd' });
  await c.listen();
  cameras.push(c);
  return c;
}

describe('ONVIF PTZ against a stateful SOAP camera', () => {
  it('connects, then moves with velocities and an ONVIF timeout on the PTZ profile, and stops', async () => {
    const cam = await camera();
    const ptz = new OnvifPtz({ hostname: '127.0.0.1', port: cam.port, username: 'operator', password: 'p4ss:w0rd' });
    await ptz.move(0.5, -0.25, 0, 1_500);
    await ptz.move(0, 0, -1, 800);
    await ptz.stop();
    // Only GetServices was refused (an older camera's answer; the client falls back to GetCapabilities).
    expect(cam.refused.map((r) => r.operation)).toEqual(['GetServices']);
    // What the client asks at connect, on the device and media services (GetServices refused: the client falls back).
    expect(cam.operations().slice(0, 5)).toEqual(['GetSystemDateAndTime', 'GetServices', 'GetCapabilities', expect.stringMatching(/^Get(Profiles|VideoSources)$/), expect.stringMatching(/^Get(Profiles|VideoSources)$/)]);
    expect(cam.moves).toEqual([
      { x: 0.5, y: -0.25, zoom: 0, timeout: 'PT1.5S' },
      { x: 0, y: 0, zoom: -1, timeout: 'PT0.8S' },
    ]);
    expect(cam.stops).toBe(1);
    // Connected once: the second move did not connect again.
    expect(cam.operations().filter((o) => o === 'GetCapabilities')).toHaveLength(1);
    ptz.close();
  });

  it('sets, lists, goes to and removes the camera’s presets (names with XML characters arrive intact)', async () => {
    const cam = await camera();
    const ptz = new OnvifPtz({ hostname: '127.0.0.1', port: cam.port, username: 'operator', password: 'p4ss:w0rd' });
    const gate = await ptz.setPreset('Gate & <Gangway> 舷梯');
    expect(gate).toEqual({ presetId: 'preset_1', name: 'Gate & <Gangway> 舷梯' });
    const bow = await ptz.setPreset('Bow');
    expect(await ptz.presets()).toEqual([gate, bow]);
    await ptz.gotoPreset(gate.presetId);
    await ptz.removePreset(gate.presetId);
    expect([...cam.presets.keys()]).toEqual([bow.presetId]);
    await expect(ptz.gotoPreset(gate.presetId)).rejects.toMatchObject({ code: 'notFound' });
    expect(cam.refused.filter((r) => r.operation !== 'GetServices')).toEqual([{ operation: 'GotoPreset', reason: 'no preset preset_1' }]);
  });

  it('uses a configured profile token, and fails with the camera’s reason for a wrong one or a wrong password', async () => {
    const cam = await camera();
    const wrongProfile = new OnvifPtz({ hostname: '127.0.0.1', port: cam.port, username: 'operator', password: 'p4ss:w0rd', profileToken: 'profile_sub' });
    await expect(wrongProfile.move(1, 0, 0, 1_000)).rejects.toMatchObject({ code: 'failed', message: expect.stringMatching(/ContinuousMove: .*no PTZ configuration/) });
    const wrongPassword = new OnvifPtz({ hostname: '127.0.0.1', port: cam.port, username: 'operator', password: 'nope' });
    await expect(wrongPassword.stop()).rejects.toMatchObject({ code: 'failed' });
    expect(cam.refused.some((r) => r.reason.startsWith('Sender not authorized'))).toBe(true);
    expect(cam.moves).toEqual([]);
    expect(cam.stops).toBe(0);
  });

  it('says so when the camera does not answer', async () => {
    const cam = await camera();
    const port = cam.port;
    await cam.close();
    cameras.splice(0);
    const ptz = new OnvifPtz({ hostname: '127.0.0.1', port, username: 'operator', password: 'x' });
    await expect(ptz.presets()).rejects.toMatchObject({ code: 'failed', message: expect.stringMatching(/did not answer/) });
  });
});

import { DEFAULT_CAMERA_EVENT_SETTINGS } from '@ship-cctv/protocol';
import { describe, expect, it } from 'vitest';
import { ShipAgent } from '../../src/agent.ts';
import type { CameraKind, CameraSource } from '../../src/camera-source.ts';
import type { FramesRequest } from '../../src/events/analyser/frames.ts';
import { MemoryEventSink } from '../../src/events/analyser/index.ts';
import { flat, frameOf, paste } from './pictures.ts';

/** A kind of camera whose analysis frames the test hands over (nothing else of it is used). */
function testCameras(feeds: FramesRequest[], stopped: string[]): CameraKind {
  return {
    takes: (source) => source === 'test',
    create: (camera) =>
      ({
        camera,
        online: undefined,
        ptz: undefined,
        speaker: undefined,
        initialState: (now: number) => ({ cameraId: camera.cameraId, online: true, recording: false, recordingSince: null, at: now }),
        hold: () => () => undefined,
        startLive: async () => ({ kind: 'failed', reason: 'not here' }),
        openRecording: () => undefined,
        shoot: async () => {
          throw new Error('not here');
        },
        analysisFrames(req: FramesRequest) {
          feeds.push(req);
          return { stop: () => void stopped.push(camera.cameraId) };
        },
      }) as unknown as CameraSource,
  };
}

describe('the agent\'s event analysis', () => {
  const link = { current: () => ({ linkType: 'VSAT' as const, quality: 80, duplex: 'BOTH' as const }), onChange: () => () => undefined };
  const config = (cameras: string[]) => ({ shoreUrl: 'ws://127.0.0.1:19102', shipId: 'S1001', key: 'k', cameras: cameras.map((cameraId) => ({ cameraId, source: 'test' })) });

  it('runs nothing without the option', async () => {
    const feeds: FramesRequest[] = [];
    const agent = new ShipAgent(config(['C1']), link, { cameraKinds: [testCameras(feeds, [])], minBackoffMs: 60_000 });
    agent.start();
    expect(agent.events).toBeUndefined();
    expect(feeds).toHaveLength(0);
    await agent.stop();
  });

  it('analyses the cameras it is asked to while it runs, hands events to the sink, and stops with the agent', async () => {
    const feeds: FramesRequest[] = [];
    const stopped: string[] = [];
    const sink = new MemoryEventSink();
    const agent = new ShipAgent(config(['C1', 'C2']), link, {
      cameraKinds: [testCameras(feeds, stopped)],
      minBackoffMs: 60_000,
      events: { sink, analysed: (id) => id === 'C1', settings: () => ({ ...DEFAULT_CAMERA_EVENT_SETTINGS, classes: ['motion'] }), timing: { quietMs: 1000 }, log: () => undefined },
    });
    agent.start();
    expect(agent.events?.status()).toEqual([
      { cameraId: 'C1', state: 'idle' },
      { cameraId: 'C2', state: 'off', reason: 'this ship does not analyse this camera' },
    ]);
    expect(feeds).toHaveLength(1);
    const bg = flat(640, 360, [27, 58, 87]);
    const box = flat(40, 80, [230, 160, 60]);
    const t0 = Date.now();
    for (let i = 0; i < 12; i++) feeds[0]?.onFrame(frameOf(i >= 2 && i < 6 ? paste(bg, box, 100 + i * 50, 150) : bg, t0 + i * 333));
    await sink.waitFor(1, 5000);
    expect(sink.events[0]?.event).toMatchObject({ cameraId: 'C1', classes: [{ class: 'motion', score: 1 }] });
    await agent.stop();
    expect(agent.events).toBeUndefined();
    expect(stopped).toEqual(['C1']);
  });
});

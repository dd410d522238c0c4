import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MediaServerMessage, ShoreMessageOf } from '@ship-cctv/protocol';
import type { LinkStream } from '../../src/core/ship-link/gateway.ts';
import { PlaybackRun, type PlaybackTicket } from '../../src/modules/playback/playback-run.ts';
import { type Clip, loadClip } from './helpers.ts';

/**
 * A viewer slower than the link: the run pauses the ship rather than queue without bound (or skip
 * video the ship already paid to send), resumes it once the viewer has drained, and drops a viewer
 * that is stuck past the hard limit. The viewer's socket buffer is set by the test.
 */
describe('PlaybackRun flow control', () => {
  let clip: Clip;
  beforeAll(async () => {
    clip = await loadClip(2);
  });

  const setup = () => {
    const link: ShoreMessageOf<'playback'>[] = [];
    let open = true;
    const stream: LinkStream<'playback'> = {
      shipId: 'S1001',
      kind: 'playback',
      id: 7,
      get open() {
        return open;
      },
      send: (m) => link.push(m),
      sendBinary: () => undefined,
      close: () => (open = false),
    };
    const viewer = { events: [] as MediaServerMessage[], buffered: 0, sent: 0, dropped: undefined as string | undefined };
    const ticket: PlaybackTicket = {
      shipId: 'S1001',
      cameraId: 'S1001-C01-1',
      orgId: 'blueocean',
      waitSeconds: 8,
      autoShutdown: { enabled: false, minutes: 20, countdownSeconds: 10 },
      model: { id: 6, displayName: 'Standard', width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' },
      start: 1_000_000,
      end: 2_000_000,
      from: 1_000_000,
      speed: 4,
    };
    let finished = 0;
    const run = new PlaybackRun({
      openStream: () => ({ ok: true, stream }),
      ticket,
      viewer: {
        sendJson: (m) => viewer.events.push(m),
        consumer: {
          send: () => (viewer.sent += 1),
          bufferedAmount: () => viewer.buffered,
          drop: (reason) => (viewer.dropped = reason),
        },
      },
      onFinish: () => (finished += 1),
      log: pino({ level: 'silent' }),
      startTimeoutMs: 10_000,
      flow: { highWaterBytes: 1_000, lowWaterBytes: 100, hardLimitBytes: 10_000, pollMs: 10 },
    });
    run.start();
    return { link, viewer, run, ticket, finished: () => finished, types: () => link.map((m) => m.type) };
  };

  it('pauses the ship while the viewer is backed up and resumes it once drained', async () => {
    const { run, viewer, types } = setup();
    run.onData(clip.init);
    run.onData(clip.fragments[0] as Uint8Array);
    expect(types()).toEqual(['playback.start']);
    viewer.buffered = 5_000;
    run.onData(clip.fragments[1] as Uint8Array);
    expect(types()).toEqual(['playback.start', 'playback.pause']);
    // What was already on its way is still delivered, and asks nothing more of the ship.
    run.onData(clip.fragments[2] as Uint8Array);
    expect(viewer.sent).toBe(4);
    expect(types()).toEqual(['playback.start', 'playback.pause']);
    viewer.buffered = 500; // draining, not yet under the low mark
    await new Promise((r) => setTimeout(r, 50));
    expect(types()).toHaveLength(2);
    viewer.buffered = 50;
    await expect.poll(() => types()).toEqual(['playback.start', 'playback.pause', 'playback.resume']);
    // The viewer never saw any of this: it is not a user pause.
    expect(viewer.events.some((e) => e.type === 'position' && e.paused)).toBe(false);
    run.stop();
  });

  it("keeps the ship paused after draining while the viewer itself paused", async () => {
    const { run, viewer, types } = setup();
    run.onData(clip.init);
    viewer.buffered = 5_000;
    run.onData(clip.fragments[0] as Uint8Array);
    run.control({ type: 'pause' });
    viewer.buffered = 0;
    await new Promise((r) => setTimeout(r, 50));
    expect(types()).toEqual(['playback.start', 'playback.pause']);
    run.control({ type: 'resume' });
    expect(types()).toEqual(['playback.start', 'playback.pause', 'playback.resume']);
    run.stop();
  });

  it('drops a viewer stuck past the hard limit and stops the ship', () => {
    const { run, viewer, types, finished, ticket } = setup();
    run.onData(clip.init);
    viewer.buffered = 20_000;
    run.onAgentMessage({ type: 'playback.position', streamId: 7, time: 1_400_000 });
    run.onData(clip.fragments[0] as Uint8Array);
    expect(viewer.dropped).toMatch(/slow consumer/);
    expect(types()).toEqual(['playback.start', 'playback.stop']);
    expect(finished()).toBe(1);
    // The ticket keeps where it got to, should the viewer carry on.
    expect(ticket.from).toBe(1_400_000);
    run.onData(clip.fragments[1] as Uint8Array);
    expect(viewer.sent).toBe(2);
  });
});

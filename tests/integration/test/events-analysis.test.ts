import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CameraEventSettingsAnswer, type EventNotice, type LinkReport, type ShipEvent, TOKEN_HEADER, dest } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { ACTOR_SLOT_S, LinkShaper, PROFILES, actorOfSlot, actorSeed, syntheticCameras } from '@ship-cctv/simulator';
import { testProfile } from '../../../packages/simulator/test/link/helpers.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { type Shore, StatusWatcher, signIn, startShore } from './helpers/shore.ts';

/**
 * The demo's path, end to end: the synthetic camera's walker on the ship, the agent's analysis with
 * the real detector, the event in the durable outbox, across a VSAT-like link, stored on shore and
 * told on STOMP /events/{shipName} — with the camera's analysis status on shore. Prints the time
 * from a walker appearing to shore's notice.
 */
const SHIP = 'S1001';
const SHIP_NAME = '蓝海之星';
const CAMERA = 'S1001-C01-1';
/**
 * The emulated link: VSAT-like by default (1 Mbit/s up, 300 ms one way); EVENTS_LINK=FOURTHG or
 * FBB takes that profile's rates and delay (no loss or jitter, as here) to measure the notice
 * time on those links the same way.
 */
const LINKS = {
  VSAT: { upKbps: 1_000, downKbps: 4_000, oneWayDelayMs: 300 },
  FOURTHG: { upKbps: PROFILES.FOURTHG.upKbps, downKbps: PROFILES.FOURTHG.downKbps, oneWayDelayMs: PROFILES.FOURTHG.oneWayDelayMs },
  FBB: { upKbps: PROFILES.FBB.upKbps, downKbps: PROFILES.FBB.downKbps, oneWayDelayMs: PROFILES.FBB.oneWayDelayMs },
} as const;
const LINK_NAME = (process.env.EVENTS_LINK ?? 'VSAT') as keyof typeof LINKS;
const LINK = LINKS[LINK_NAME];
if (!LINK) throw new Error(`EVENTS_LINK must be one of ${Object.keys(LINKS).join(', ')}`);
const report: LinkReport = { linkType: LINK_NAME, quality: 80, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const tmp = tempDir('events-analysis-');

/** The first walker to come into the picture at or after `at` (the slots' actors are seeded by the camera's name). */
function nextWalker(at: number, name: string): { from: number; to: number } {
  for (let t = at; t < at + 10 * ACTOR_SLOT_S * 1000; t += ACTOR_SLOT_S * 1000) {
    const a = actorOfSlot(t, actorSeed(name));
    if (a.kind === 'walker' && a.from >= at) return a;
  }
  throw new Error('no walker in ten slots');
}

describe('events from the ship’s analysis to shore', () => {
  let shore: Shore;
  let shaper: LinkShaper;
  let agent: ShipAgent | undefined;
  let watcher: StatusWatcher;
  let token: string;

  beforeAll(async () => {
    shore = await startShore();
    token = await signIn(shore.app);
    shaper = new LinkShaper({ profile: testProfile(LINK), target: { port: shore.port } });
    await shaper.listen();
    watcher = await StatusWatcher.connect(shore.port, token);
    watcher.subscribe(dest.events(SHIP_NAME));
  });
  afterAll(async () => {
    await agent?.stop();
    await watcher?.close();
    await shaper?.close();
    await shore?.close();
    tmp.remove();
  });

  it('a person walking into the picture arrives on shore as an event with its picture, and the analysis status with it', { timeout: 200_000 }, async () => {
    const key = await shore.app.agentKeys.issue(SHIP);
    const name = 'Gangway';
    // When the analysis handed each event to the outbox: what follows is the outbox's and the link's.
    const handed = new Map<string, number>();
    const sink = {
      add: async (event: ShipEvent, jpeg: Buffer) => {
        handed.set(event.eventId, Date.now());
        await agent?.eventOutbox.add(event, jpeg);
      },
    };
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name }] },
      link,
      { cameraKinds: [syntheticCameras({ actors: new Set([CAMERA]) })], minBackoffMs: 100, maxBackoffMs: 300, recorder: { dataDir: tmp.dir }, events: { log: () => undefined, statusEveryMs: 500, sink } },
    );
    agent.start();
    // The first walker's event: the detector loads when the camera first sees motion.
    const notice = await watcher.waitFor<EventNotice>(dest.events(SHIP_NAME), (n) => n.type === 'event', 90_000);
    if (notice.type !== 'event') throw new Error('not an event');
    expect(notice.event).toMatchObject({ shipId: SHIP, cameraId: CAMERA, classes: [expect.objectContaining({ class: 'person' })] });
    expect(notice.notify).toBe(true);
    const picture = await shore.app.inject({ method: 'GET', url: `/api/v1/cctv/events/${notice.event.id}/picture`, headers: { [TOKEN_HEADER]: token } });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.length).toBeLessThanOrEqual(30 * 1024);
    const status = await shore.app.inject({ method: 'GET', url: `/api/v1/cctv/events/settings/camera/${CAMERA}`, headers: { [TOKEN_HEADER]: token } });
    expect(status.json<{ data: CameraEventSettingsAnswer }>().data.status).toEqual({ cameraId: CAMERA, state: 'running' });

    // With the detector loaded: how long from a person coming into the picture to shore's notice.
    const walk = nextWalker(Date.now() + 1_000, name);
    const next = await watcher.waitFor<EventNotice>(dest.events(SHIP_NAME), (n) => n.type === 'event' && n.event.start >= walk.from - 1_000 && n.event.start <= walk.to, 90_000);
    if (next.type !== 'event') throw new Error('not an event');
    const out = handed.get(next.event.id) ?? NaN;
    console.log(
      `[events] a person walked into the picture; shore's notice came ${Math.round(next.event.receivedAt - walk.from)} ms after ` +
        `(first seen ${Math.round(next.event.start - walk.from)} ms after, handed to the outbox ${Math.round(out - walk.from)} ms after, ` +
        `outbox to shore ${Math.round(next.event.receivedAt - out)} ms; ${LINK_NAME}-like link: ${LINK.upKbps} kbit/s up, ${LINK.oneWayDelayMs} ms one way)`,
    );
  });
});

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_PICTURE_MAX_BYTES, type EventPage, type LinkReport, type ShipEvent, TOKEN_HEADER, wsFrameOverhead } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { LinkShaper, shootSynthetic, syntheticCameras } from '@ship-cctv/simulator';
import { testProfile } from '../../../packages/simulator/test/link/helpers.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { type Shore, scrapeMetrics, signIn, startShore } from './helpers/shore.ts';

/**
 * Events end to end: a real agent behind the link shaper and a real shore. Events the analysis
 * hands the outbox reach shore once each — across a link outage in the middle of a picture, an
 * agent restart during the outage, and events found while the link is down — and the bytes they
 * cost the link count under purpose `events`.
 */
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const tmp = tempDir('events-link-');
/**
 * How long the link stays down (EVENTS_OUTAGE_MS; 0: as long as the steps take, a few seconds).
 * A long one — the 10 minutes of the events figures — finds an event every 30 s meanwhile and
 * restarts the agent half way through.
 */
const OUTAGE_MS = Number(process.env.EVENTS_OUTAGE_MS ?? 0);

describe('events over the ship link', () => {
  let shore: Shore;
  let shaper: LinkShaper;
  let key: string;
  let token: string;
  const agents: ShipAgent[] = [];
  const dataDir = join(tmp.dir, 'agent');
  const pictures: Buffer[] = [];
  let serial = 0;

  const startAgent = (): ShipAgent => {
    const agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      link,
      { cameraKinds: [syntheticCameras()], minBackoffMs: 100, maxBackoffMs: 300, recorder: { dataDir }, eventOutbox: { answerTimeoutMs: 3_000 } },
    );
    agent.start();
    agents.push(agent);
    return agent;
  };
  const ready = () => expect.poll(() => shore.app.agents.get(SHIP)?.ready ?? false, { timeout: 10_000 }).toBe(true);
  /** An event as the analysis would hand it over, with one of the synthetic camera's pictures. */
  const found = (): { event: ShipEvent; jpeg: Buffer } => {
    const jpeg = pictures[serial % pictures.length]!;
    const start = Date.UTC(2027, 2, 1) + ++serial * 30_000;
    return {
      jpeg,
      event: {
        eventId: `${CAMERA}-${start}`,
        cameraId: CAMERA,
        start,
        end: start + 6_000,
        classes: [{ class: 'person', score: 0.82 }],
        zone: 'gangway',
        picture: { bytes: jpeg.length, width: 640, height: 360, sha256: createHash('sha256').update(jpeg).digest('hex'), time: start + 2_000 },
        recording: { from: start - 5_000, to: start + 11_000 },
      },
    };
  };
  const onShore = async (): Promise<EventPage> => {
    const res = await shore.app.inject({ method: 'GET', url: `/api/v1/cctv/events?shipId=${SHIP}&size=200`, headers: { [TOKEN_HEADER]: token } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: EventPage }>().data;
  };
  const upBytes = async (purpose: string) => Number(new RegExp(`shipcctv_link_bytes_total\\{[^}]*direction="up"[^}]*purpose="${purpose}"[^}]*\\} (\\d+)`).exec(await scrapeMetrics(shore.app))?.[1] ?? 0);

  beforeAll(async () => {
    shore = await startShore();
    key = await shore.app.agentKeys.issue(SHIP);
    token = await signIn(shore.app);
    shaper = new LinkShaper({ profile: testProfile({ upKbps: 2_000, oneWayDelayMs: 20 }), target: { port: shore.port }, dropAfterMs: 500 });
    await shaper.listen();
    const t0 = Date.UTC(2027, 2, 1, 12);
    for (let i = 0; i < 3; i++) pictures.push((await shootSynthetic('Bridge', t0 + i * 7_000, { width: 640, height: 360 }, { fontFile: undefined, nameFontFile: undefined })).jpeg);
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await shaper?.close();
    await shore?.close();
    tmp.remove();
  });

  it('loses none and stores none twice across an outage mid-picture and an agent restart', { timeout: 120_000 + OUTAGE_MS }, async () => {
    for (const p of pictures) expect(p.length).toBeLessThanOrEqual(EVENT_PICTURE_MAX_BYTES);
    const sent: ShipEvent[] = [];
    const add = async (agent: ShipAgent, n: number) => {
      for (let i = 0; i < n; i++) {
        const { event, jpeg } = found();
        await agent.eventOutbox.add(event, jpeg);
        sent.push(event);
      }
    };
    let agent = startAgent();
    await ready();
    await add(agent, 5);
    await expect.poll(async () => (await onShore()).total, { timeout: 20_000 }).toBe(5);
    const before = { events: await upBytes('events'), control: await upBytes('control') };

    // A slow link: a picture takes seconds, long enough to cut one in the middle.
    shaper.setProfile(testProfile({ upKbps: 24, oneWayDelayMs: 20 }));
    await add(agent, 5);
    const cut = sent[5]!;
    await expect.poll(() => shore.app.events.files.received(SHIP, cut.eventId), { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
    shaper.setOutage(true);
    await expect.poll(() => shore.app.agents.get(SHIP), { timeout: 10_000 }).toBeUndefined();
    // Found during the outage, then the agent restarts, and finds more before the link is back.
    const down = performance.now();
    const findUntil = async (until: number) => {
      while (performance.now() - down < until) {
        await new Promise((r) => setTimeout(r, Math.min(30_000, until - (performance.now() - down))));
        await add(agent, 1);
      }
    };
    await add(agent, 3);
    await findUntil(OUTAGE_MS / 2);
    agents.pop();
    await agent.stop();
    agent = startAgent();
    await add(agent, 3);
    await findUntil(OUTAGE_MS);
    const held = shore.app.events.files.received(SHIP, cut.eventId);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(cut.picture.bytes);
    shaper.setOutage(false);
    const downFor = performance.now() - down;
    shaper.setProfile(testProfile({ upKbps: 2_000, oneWayDelayMs: 20 }));
    await ready();
    await expect.poll(async () => (await onShore()).total, { timeout: 30_000 }).toBe(sent.length);
    await expect.poll(() => agent.eventOutbox.store.size, { timeout: 10_000 }).toBe(0);

    const page = await onShore();
    expect(page.events.map((e) => e.id).sort()).toEqual(sent.map((e) => e.eventId).sort());
    expect(new Set(page.events.map((e) => e.id)).size).toBe(page.events.length);
    for (const e of sent.slice(0, 3)) {
      const res = await shore.app.inject({ method: 'GET', url: `/api/v1/cctv/events/${e.eventId}/picture`, headers: { [TOKEN_HEADER]: token } });
      expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(e.picture.sha256);
    }

    const after = sent.slice(5);
    const pictureBytes = after.reduce((n, e) => n + e.picture.bytes, 0);
    const eventsBytes = (await upBytes('events')) - before.events;
    // Every picture byte at least once; what was on its way at the cut is sent again, no more.
    expect(eventsBytes).toBeGreaterThanOrEqual(pictureBytes);
    expect(eventsBytes).toBeLessThan(pictureBytes * 1.3);
    const offer = JSON.stringify({ type: 'events.offer', streamId: 1, event: sent[0] });
    const offerWire = Buffer.byteLength(offer) + wsFrameOverhead(Buffer.byteLength(offer), true);
    const perEvent = sent.slice(0, 5).reduce((n, e) => n + e.picture.bytes, 0) / 5;
    // A picture crosses in frames of at most 8,183 bytes, each with 17 bytes of headers (stream, offset, WebSocket).
    const frames = Math.ceil(perEvent / 8_183);
    console.log(
      `[events] ${sent.length} events, 0 lost, 0 twice across an outage of ${Math.round(downFor / 1000)} s mid-picture (${held} of ${cut.picture.bytes} bytes held at the cut) and an agent restart; ` +
        `per event up: ${Math.round(perEvent)} B picture + ${frames} frames' headers (${frames * 17} B) + ${offerWire} B offer ≈ ${Math.round(perEvent + offerWire + frames * 17)} B; ` +
        `after the cut ${eventsBytes} B crossed for ${pictureBytes} B of pictures`,
    );
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type ShoreMessage, packTalkPackets } from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { CAMERA, Talker } from './talker.ts';

const SHIP = 'S1001';

/**
 * Talkback on shore, through the real media socket and agent link: one talker per ship, the
 * checks before a talk starts, and every way a talk ends freeing the ship.
 */
describe('talkback on shore', () => {
  let t: TestApp;
  let port: number;
  let demo: string;
  let duty: string;
  let njzsz: string;
  let agent: RawAgent | undefined;
  const talkers: Talker[] = [];

  const connectAgent = async (capabilities = ['live', 'talk'], answer = true) => {
    const key = await t.app.agentKeys.issue(SHIP);
    agent = await RawAgent.connect(port, SHIP, key, {
      hello: {},
      capabilities,
      onMessage: (msg: ShoreMessage, a: RawAgent) => {
        if (answer && msg.type === 'talk.open') a.send({ type: 'talk.opened', streamId: msg.streamId });
      },
    });
    await expect.poll(() => t.app.agents.get(SHIP)?.ready ?? false).toBe(true);
    return agent;
  };
  const talk = async (token: string, cameraId = CAMERA) => {
    const talker = await Talker.start(port, token, cameraId);
    talkers.push(talker);
    return talker;
  };

  beforeAll(async () => {
    t = await build({ talk: { maxSeconds: 2 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    demo = (await logon(t.app, 'demo')).token;
    duty = (await logon(t.app, 'duty')).token;
    njzsz = (await logon(t.app, 'njzsz')).token;
  }, 60_000);
  afterEach(async () => {
    for (const s of talkers.splice(0)) s.ws.terminate();
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens a talk stream to the ship and sends the voice down as talk frames, then closes it on stop', async () => {
    const ship = await connectAgent();
    const talker = await talk(demo);
    const voice = packTalkPackets([new Uint8Array([0xf8, 1, 2]), new Uint8Array([0xf8, 3])]);
    talker.ws.send(voice, { binary: true });
    expect(await talker.next('talk.started')).toEqual({ type: 'talk.started', maxSeconds: 2, talker: 'Demo Operator' });
    await ship.until(() => ship.frames.length === 1, 'a talk frame');
    const [open] = ship.of('talk.open');
    expect(open).toMatchObject({ cameraId: CAMERA, codec: 'opus', format: 'opus', talker: 'Demo Operator' });
    expect(ship.frames[0]).toMatchObject({ kind: 'talk', streamId: open?.streamId });
    expect([...(ship.frames[0]?.payload ?? [])]).toEqual([...voice]);

    talker.ws.send(JSON.stringify({ type: 'talk.stop' }));
    expect((await talker.next('talk.ended')).reason).toBe('stopped');
    await ship.until(() => ship.of('talk.close').length === 1, 'talk.close');
    expect(ship.of('talk.close')[0]?.streamId).toBe(open?.streamId);
    await expect.poll(() => talker.closed).toBe(true);
  });

  it('lets one operator talk to a ship: another operator, or the same one in another tab, hears who holds it', async () => {
    await connectAgent();
    const first = await talk(demo);
    await first.next('talk.started');
    const other = await talk(duty);
    expect(await other.next('talk.error')).toMatchObject({ code: 'occupied', holder: 'Demo Operator' });
    const tab = await talk(demo, 'S1001-C02-1');
    expect(await tab.next('talk.error')).toMatchObject({ code: 'occupied', holder: 'Demo Operator' });
    await expect.poll(() => other.closed && tab.closed).toBe(true);
  });

  it('frees the ship when the talker’s socket drops, and tells the ship', async () => {
    const ship = await connectAgent();
    const first = await talk(demo);
    await first.next('talk.started');
    first.ws.terminate();
    await ship.until(() => ship.of('talk.close').length === 1, 'talk.close after the socket dropped');
    const next = await talk(duty);
    expect((await next.next('talk.started')).talker).toBe('Duty Officer');
  });

  it('ends a talk at the maximum duration', async () => {
    const ship = await connectAgent();
    const talker = await talk(demo);
    await talker.next('talk.started');
    const ended = await talker.next('talk.ended');
    expect(ended.reason).toBe('maxDuration');
    expect(ship.of('talk.close')).toHaveLength(1);
    const again = await talk(duty);
    await again.next('talk.started');
  });

  it('ends the talk when the ship’s link goes, and when the ship refuses it', async () => {
    const ship = await connectAgent();
    const talker = await talk(demo);
    await talker.next('talk.started');
    await ship.close();
    expect((await talker.next('talk.ended')).reason).toBe('shipOffline');

    const refusing = await connectAgent(['talk'], false);
    const second = await talk(demo);
    await second.next('talk.started');
    const [open] = refusing.of('talk.open');
    refusing.send({ type: 'talk.failed', streamId: open?.streamId ?? 0, code: 'occupied', message: 'another client holds the backchannel' });
    const ended = await second.next('talk.ended');
    expect(ended.reason).toBe('failed');
    expect(ended.message).toContain('another client holds the backchannel');
  });

  it('refuses at once: talk off, ship offline, an agent without talk, another organisation’s camera', async () => {
    const off = await talk(demo, 'S1002-C01-1');
    expect((await off.next('talk.error')).code).toBe('talkOff');
    const offline = await talk(demo);
    expect((await offline.next('talk.error')).code).toBe('shipOffline');
    await connectAgent(['live']);
    const unsupported = await talk(demo);
    expect((await unsupported.next('talk.error')).code).toBe('unsupported');
    const foreign = await talk(njzsz);
    expect((await foreign.next('talk.error')).code).toBe('forbidden');
    // An unknown camera is refused as another organisation's is: the answer tells no ids apart.
    const unknown = await talk(demo, 'S9999-C01-1');
    expect((await unknown.next('talk.error')).code).toBe('forbidden');
  });

  it('ends the talk when its user signs out, and frees the ship', async () => {
    const ship = await connectAgent();
    const own = (await logon(t.app, 'duty')).token;
    const talker = await talk(own);
    await talker.next('talk.started');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/sys/logout', headers: { 'cas-jwt': own } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await talker.next('talk.ended')).reason).toBe('signedOut');
    await ship.until(() => ship.of('talk.close').length === 1, 'talk.close after the sign-out');
    const next = await talk(demo);
    await next.next('talk.started');
  });

  it('counts the voice under the link purpose talk', async () => {
    const ship = await connectAgent();
    const talker = await talk(demo);
    await talker.next('talk.started');
    const voice = packTalkPackets([new Uint8Array(90).fill(0xf8), new Uint8Array(90).fill(0xf8), new Uint8Array(90).fill(0xf8)]);
    for (let i = 0; i < 5; i++) talker.ws.send(voice, { binary: true });
    await ship.until(() => ship.frames.length === 5, 'five talk frames');
    expect(ship.frames.every((f) => f.kind === 'talk')).toBe(true);
    expect(BINARY_KIND.talk).toBe(4);
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer test-metrics-token' } });
    const down = Number(/shipcctv_link_bytes_total\{[^}]*direction="down"[^}]*purpose="talk"[^}]*\} (\d+)/.exec(res.body)?.[1] ?? 0);
    // 5 × (276 bytes of packets + 5 of frame header + 2 of WebSocket header).
    expect(down).toBeGreaterThanOrEqual(5 * (voice.length + 5 + 2));
  });
});

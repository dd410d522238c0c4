import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../../src/core/db/schema.ts';
import { type TestApp, build, logon, scrapeMetrics } from '../helpers/build.ts';
import { type Clip, MediaClient, ScriptedAgent, type ScriptedAgentOptions, linkBytes, loadClip } from './helpers.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const HOUR = 3_600_000;

/**
 * Ship-end playback on the media socket, against the real server and a scripted agent on the real
 * agent link that plays a real H.264 fMP4 clip as kind-2 frames.
 */
describe('ship-end playback on the media socket', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  let clip: Clip;
  let token: string;
  let agent: ScriptedAgent | undefined;
  const clients: MediaClient[] = [];
  const start = Date.now() - 3 * HOUR;
  const end = start + HOUR;

  const open = async (as = token) => {
    const c = await MediaClient.open(port, as);
    clients.push(c);
    return c;
  };
  const connect = async (opts: ScriptedAgentOptions = {}) => {
    agent = await ScriptedAgent.connect(port, SHIP, key, clip, { noRecording: ['S1001-C02-1'], ...opts });
    await expect.poll(() => t.app.agents.get(SHIP)?.ready ?? false).toBe(true);
    return agent;
  };
  const play = (c: MediaClient, extra: Record<string, unknown> = {}) =>
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end, speed: 16, timeZone: 'China Standard Time', ...extra });
  const metrics = async () => await scrapeMetrics(t.app);
  const playing = (c: MediaClient) => c.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined, 10_000, 'playing');

  beforeAll(async () => {
    clip = await loadClip(4);
    // "Minutes" of 1.5 s for the watch limit (the organisation's setting is changed in that test).
    t = await build({ live: { minuteMs: 1_500 }, playback: { playback: { startTimeoutMs: 2_000 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    key = await t.app.agentKeys.issue(SHIP);
    token = (await logon(t.app, 'demo')).token;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await agent?.close();
    agent = undefined;
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a bad request with a clear reason, and asks nothing of the ship', async () => {
    const ship = await connect();
    const c = await open();
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ start: end, end: start }, /start time must be before the end time/],
      [{ end: start }, /start time must be before the end time/],
      [{ start: Date.now() - HOUR, end: Date.now() + 10 * 60_000 }, /end time must not be later than now/],
      [{ start: Date.now() - 8 * 24 * HOUR, end: Date.now() - HOUR }, /at most 7 days/],
      [{ speed: 3 }, /speed must be one of 1, 2, 4, 8, 16/],
      [{ start: 'yesterday' }, /"start" and "end" must be epoch milliseconds/],
      [{ cameraId: '' }, /cameraId/],
      [{ templateId: 0 }, /templateId/],
      [{ decoders: 'hvc1' }, /"decoders" must be a list of at most 16 codec prefixes/],
      [{ decoders: ['hvc1', 'no spaces'] }, /"decoders" must be a list/],
    ];
    for (const [extra, message] of refusals) {
      play(c, extra);
      const error = await c.nextError();
      expect(error.code, JSON.stringify(extra)).toBe('badRequest');
      expect(error.message).toMatch(message);
    }
    c.send({ type: 'seek', time: start });
    expect(await c.nextError()).toMatchObject({ code: 'badRequest', message: 'no ship-end playback is running on this socket' });
    c.send({ type: 'speed', speed: 5 });
    expect((await c.nextError()).message).toMatch(/speed must be one of/);

    play(c, { cameraId: 'S2002-C01-1' });
    const noDefault = await c.nextError();
    expect(noDefault.code).toBe('noDefaultTemplate');
    expect(noDefault.message).toContain('无默认清晰度模板');
    // An unknown camera is refused as another organisation's is: the answer tells no ids apart.
    play(c, { cameraId: 'S1001-C99-1' });
    expect((await c.nextError()).code).toBe('forbidden');
    play(c, { templateId: 999 });
    expect((await c.nextError()).message).toMatch(/template 999 is not configured/);

    const outsider = await open((await logon(t.app, 'njzsz')).token);
    play(outsider, {});
    expect(await outsider.nextError()).toMatchObject({ code: 'forbidden', message: 'You do not have permission to do this' });

    expect(ship.of('playback.start')).toEqual([]);
  });

  it("plays the ship's recording to this viewer: codec, init, fragments, positions; the bytes count as playback on the link", async () => {
    const ship = await connect();
    const before = await metrics();
    const c = await open();
    play(c);
    await c.until((x) => x.event('status', (e) => e.state === 'ended') !== undefined, 15_000, 'ended');

    expect(ship.of('playback.start')).toEqual([
      {
        type: 'playback.start',
        streamId: expect.any(Number),
        cameraId: CAMERA,
        // The ship's default definition (model 6, standard 640×360).
        encode: { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' },
        start,
        end,
        from: start,
        speed: 16,
      },
    ]);
    expect(c.event('status', (e) => e.state === 'starting')?.waitSeconds).toBe(8);
    expect(c.event('codec')).toMatchObject({ mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./), width: 320, height: 180, templateId: 6 });
    // The codec comes before the init segment, and the init before any fragment.
    const codecAt = c.order.indexOf('codec');
    expect(c.order[codecAt + 1]).toBe('binary:ftyp');
    expect(c.order.filter((o) => o.startsWith('binary:')).length).toBe(1 + clip.fragments.length);
    const positions = c.events.filter((e) => e.type === 'position');
    expect(positions.length).toBeGreaterThanOrEqual(4);
    expect(positions[1]).toEqual({ type: 'position', time: start + 10 * 100 * 16, speed: 16, paused: false });
    const expectedBytes = clip.init.length + clip.fragments.reduce((a, f) => a + f.length, 0);
    expect(c.bytes).toBe(expectedBytes);

    const after = await metrics();
    const up = linkBytes(after, SHIP, 'up', 'playback') - linkBytes(before, SHIP, 'up', 'playback');
    // Every media byte, with its 5-byte stream header and WebSocket framing, counted as playback.
    expect(up).toBeGreaterThan(expectedBytes);
    expect(up).toBeLessThan(expectedBytes + (1 + clip.fragments.length) * 20);
    expect(linkBytes(after, SHIP, 'up', 'live')).toBe(linkBytes(before, SHIP, 'up', 'live'));
    // The range is done: nothing is left running on shore.
    expect(t.app.playback.active()).toEqual([]);
  });

  it('pauses the ship on pause (no more bytes) and resumes it', async () => {
    const ship = await connect({ fragmentEveryMs: 60 });
    const c = await open();
    play(c);
    await c.until((x) => x.chunks.length > 5, 10_000, 'fragments');
    c.send({ type: 'pause' });
    await c.until((x) => x.event('position', (e) => e.paused) !== undefined, 5_000, 'paused position');
    await ship.until(() => ship.of('playback.pause').length === 1, 5_000, 'playback.pause');
    await new Promise((r) => setTimeout(r, 200)); // what was already on its way arrives
    const bytes = c.bytes;
    await new Promise((r) => setTimeout(r, 500));
    expect(c.bytes).toBe(bytes);
    expect(t.app.playback.active()).toEqual([expect.objectContaining({ paused: true, cameraId: CAMERA })]);

    c.send({ type: 'resume' });
    await ship.until(() => ship.of('playback.resume').length === 1, 5_000, 'playback.resume');
    await c.until((x) => x.bytes > bytes, 5_000, 'bytes after resume');
    const lastPosition = [...c.events].reverse().find((e) => e.type === 'position');
    expect(lastPosition).toMatchObject({ paused: false, speed: 16 });
    // One stream all along: pausing does not restart it.
    expect(ship.of('playback.start')).toHaveLength(1);
  });

  it('seeks and changes speed with a new stream from the ship: a new codec and init segment each time', async () => {
    const ship = await connect({ fragmentEveryMs: 50 });
    const c = await open();
    play(c, { speed: 4 });
    await c.until((x) => x.chunks.length > 5, 10_000, 'fragments');
    const first = ship.of('playback.start')[0];

    c.events.length = 0;
    c.order.length = 0;
    const to = start + 20 * 60_000;
    c.send({ type: 'seek', time: to });
    await c.until((x) => x.order.includes('binary:ftyp'), 10_000, 'a new init segment');
    expect(c.order.indexOf('codec')).toBeLessThan(c.order.indexOf('binary:ftyp'));
    expect(c.event('position')).toMatchObject({ time: to, speed: 4 });
    expect(ship.of('playback.stop')).toEqual([{ type: 'playback.stop', streamId: first?.streamId }]);
    const second = ship.of('playback.start')[1];
    expect(second).toMatchObject({ from: to, speed: 4, start, end });
    expect(second?.streamId).not.toBe(first?.streamId);

    c.order.length = 0;
    c.send({ type: 'speed', speed: 1 });
    await c.until((x) => x.order.includes('binary:ftyp'), 10_000, 'a new init segment');
    await ship.until(() => ship.of('playback.start').length === 3);
    const third = ship.of('playback.start')[2];
    // From where the ship said it was, at the new speed.
    expect(third?.speed).toBe(1);
    expect(third?.from).toBeGreaterThanOrEqual(to);

    c.send({ type: 'seek', time: end });
    expect((await c.nextError()).message).toMatch(/inside the playback range/);
  });

  it('seeking while paused restarts nothing until resume', async () => {
    const ship = await connect({ fragmentEveryMs: 50 });
    const c = await open();
    play(c);
    await c.until((x) => x.chunks.length > 3, 10_000, 'fragments');
    c.send({ type: 'pause' });
    const to = start + 30 * 60_000;
    c.send({ type: 'seek', time: to });
    await c.until((x) => x.event('position', (e) => e.time === to && e.paused) !== undefined, 5_000, 'paused at the new time');
    await ship.until(() => ship.of('playback.stop').length === 1);
    expect(ship.of('playback.start')).toHaveLength(1);
    c.send({ type: 'resume' });
    await ship.until(() => ship.of('playback.start').length === 2);
    expect(ship.of('playback.start')[1]).toMatchObject({ from: to });
  });

  it("asks the ship for an H.265 camera's recording as it is for a viewer that decodes H.265, and in H.264 for the others", async () => {
    const ship = await connect({ fragmentEveryMs: 50 });
    const viewers = [await open(), await open(), await open()];
    play(viewers[0] as MediaClient, { speed: 1, decoders: ['avc1', 'hvc1'] });
    play(viewers[1] as MediaClient, { speed: 1 });
    play(viewers[2] as MediaClient, { speed: 1, decoders: ['hev1', 'something-newer'] });
    await Promise.all(viewers.map((v) => playing(v)));
    const asked = ship.of('playback.start').map((s) => s.encode.passThrough ?? []).sort((x, y) => x.length - y.length);
    expect(asked).toEqual([[], ['h265'], ['h265']]);
    expect(ship.of('playback.start').every((s) => s.encode.codec === 'h264')).toBe(true);
  });

  it('gives each viewer its own playback and stops the ship when a viewer stops or leaves', async () => {
    const ship = await connect({ fragmentEveryMs: 50 });
    const a = await open();
    const b = await open();
    play(a);
    play(b, { start: start + 60_000 });
    await Promise.all([playing(a), playing(b)]);
    const starts = ship.of('playback.start');
    expect(starts.map((s) => s.from).sort()).toEqual([start, start + 60_000]);
    expect(new Set(starts.map((s) => s.streamId)).size).toBe(2);

    a.send({ type: 'stop' });
    await a.until((x) => x.event('status', (e) => e.state === 'ended') !== undefined, 5_000, 'ended');
    await b.close();
    await ship.until(() => ship.of('playback.stop').length === 2, 5_000, 'two stops');
    expect(ship.of('playback.stop').map((s) => s.streamId).sort()).toEqual(starts.map((s) => s.streamId).sort());
    expect(t.app.playback.active()).toEqual([]);
  });

  it('says when the ship has no recording, or does not start the playback', async () => {
    await connect({ fragmentEveryMs: 50 });
    const c = await open();
    play(c, { cameraId: 'S1001-C02-1' });
    expect(await c.nextError()).toMatchObject({ code: 'noRecording' });
    expect(c.chunks).toHaveLength(0);
    await agent?.close();
    await expect.poll(() => t.app.agents.get(SHIP)).toBeUndefined();

    // An agent that never answers playback.start (the start time-out is 2 s in this test).
    const silent = await connect({ silentPlayback: true });
    const d = await open();
    play(d);
    await silent.until(() => silent.of('playback.start').length === 1);
    expect(await d.nextError(5_000)).toMatchObject({ code: 'playbackFailed', message: 'the ship did not start the playback within 2 s' });
    // Shore gave up on it: the ship is told to stop, in case it starts after all.
    await silent.until(() => silent.of('playback.stop').length === 1);
    expect(t.app.playback.active()).toEqual([]);
  });

  it('shows the ship offline mid-playback and resumes from the last position when it returns', async () => {
    let ship = await connect({ fragmentEveryMs: 40 });
    const c = await open();
    play(c);
    await c.until((x) => x.events.filter((e) => e.type === 'position').length >= 2, 10_000, 'two positions');
    const last = ship.of('playback.start')[0];
    await ship.close();
    await c.until((x) => x.event('status', (e) => e.state === 'offline') !== undefined, 10_000, 'offline');
    const position = [...c.events].reverse().find((e) => e.type === 'position');
    const shown = position?.type === 'position' ? position.time : -1;
    expect(shown).toBeGreaterThan(start);

    c.order.length = 0;
    ship = await connect({ fragmentEveryMs: 40 });
    await ship.until(() => ship.of('playback.start').length === 1, 10_000, 'playback.start after reconnect');
    expect(ship.of('playback.start')[0]).toMatchObject({ from: shown, speed: 16, start, end });
    expect(ship.of('playback.start')[0]?.streamId).not.toBe(last?.streamId);
    await c.until((x) => x.order.includes('binary:ftyp'), 10_000, 'a new init segment');
    expect(c.order.indexOf('codec')).toBeLessThan(c.order.indexOf('binary:ftyp'));
  });

  it('starts again when the ship reconnects before shore noticed its old link had gone', async () => {
    const old = await connect({ fragmentEveryMs: 40 });
    const c = await open();
    play(c);
    await c.until((x) => x.events.filter((e) => e.type === 'position').length >= 2, 10_000, 'two positions');
    // A second connection of the same ship replaces the first (whose playback died with it on the ship).
    const fresh = await ScriptedAgent.connect(port, SHIP, key, clip, { fragmentEveryMs: 40 });
    await fresh.until(() => fresh.of('playback.start').length === 1, 10_000, 'playback.start on the new connection');
    expect(fresh.of('playback.start')[0]?.from).toBeGreaterThan(start);
    await old.close();
    agent = fresh;
    c.order.length = 0;
    await c.until((x) => x.order.includes('binary:ftyp'), 10_000, 'a new init segment');
  });

  it('applies the continuous-watching limit as live does, and continues from the last position', async () => {
    await t.app.database.db.update(organizations).set({ autoShutdownMinutes: 1, autoShutdownCountdownSeconds: 1 }).where(eq(organizations.id, 'blueocean'));
    try {
      const ship = await connect({ fragmentEveryMs: 100 });
      const c = await open();
      play(c, { speed: 1 });
      await c.until((x) => x.event('status', (e) => e.state === 'limit' && e.countdownSeconds === 0) !== undefined, 10_000, 'limit reached');
      const countdown = c.events.filter((e) => e.type === 'status' && e.state === 'limit').map((e) => (e.type === 'status' ? e.countdownSeconds : -1));
      expect(countdown).toEqual([1, 0]);
      // Enforced on the server: the ship is told to stop, and no more bytes come.
      await ship.until(() => ship.of('playback.stop').length === 1, 5_000, 'playback.stop');
      const bytes = c.bytes;
      await new Promise((r) => setTimeout(r, 500));
      expect(c.bytes).toBe(bytes);
      const position = [...c.events].reverse().find((e) => e.type === 'position');
      const shown = position?.type === 'position' ? position.time : -1;

      c.send({ type: 'continue' });
      await ship.until(() => ship.of('playback.start').length === 2, 5_000, 'playback.start on continue');
      expect(ship.of('playback.start')[1]).toMatchObject({ from: shown, speed: 1 });
      await c.until((x) => x.bytes > bytes, 5_000, 'bytes after continue');
    } finally {
      await t.app.database.db.update(organizations).set({ autoShutdownMinutes: 20, autoShutdownCountdownSeconds: 10 }).where(eq(organizations.id, 'blueocean'));
    }
  });
});

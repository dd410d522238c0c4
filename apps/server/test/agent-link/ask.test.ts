import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AgentMessageOf, BINARY_KIND, type ShipPictureEntry, type ShoreMessage } from '@ship-cctv/protocol';
import { type Question, ShipAskError, ask } from '../../src/core/ship-link/ask.ts';
import type { Dropped } from '../../src/core/ship-link/gateway.ts';
import { type App, buildApp } from '../../src/app.ts';
import { type Database } from '../../src/core/db/client.ts';
import { TEST_JWT_SECRET } from '../helpers/build.ts';
import { freshDatabase } from '../helpers/database.ts';
import { RawAgent } from './raw-agent.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';

/** A PTZ stop and its answer; the ship's `full` stands for "busy" here, any other failure is a refusal. */
const stop = (over: Partial<Question<'ptz', AgentMessageOf<'ptz'>>> = {}): Question<'ptz', AgentMessageOf<'ptz'>> => ({
  shipId: SHIP,
  kind: 'ptz',
  request: (requestId) => ({ type: 'ptz.stop', requestId, cameraId: CAMERA }),
  answer: (msg, reply) => (msg.type === 'ptz.failed' ? reply.fail(msg.code === 'full' ? 'busy' : 'refused', msg.message) : reply.done(msg)),
  timeoutMs: 10_000,
  ...over,
});

/** What ask() failed with: its reason, HTTP status and message (or that it did not fail). */
async function failure(asked: Promise<unknown>): Promise<{ reason: string; status: number; message: string } | string> {
  try {
    await asked;
    return 'answered';
  } catch (err) {
    if (!(err instanceof ShipAskError)) throw err;
    return { reason: err.reason, status: err.code, message: err.message };
  }
}

/**
 * ask() on the ship's link with two shore instances on one database and the machine's Redis: the
 * ship's agent is connected to A; every case is asked on A (the link here) and on B (relayed
 * through A), and must answer, or fail with the same reason and HTTP status, either way.
 */
describe('ask(): one request to a ship and its answer', () => {
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;
  let database: Database;
  let a: App;
  let b: App;
  let key: string;
  let agent: RawAgent | undefined;
  /** What the ship does with each message shore sends (set by each case). */
  let ship: (msg: ShoreMessage, agent: RawAgent) => void = () => undefined;

  const portOf = (app: App) => {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  };
  /** Streams open on A's link and streams B holds through A. */
  const streams = () => ({ onLink: a.agents.openStreamCount, relayed: b.linkRelay?.counts.requested });
  /** Nothing asked: no stream is open on its link (an idle ship of link version 4 has no inbox open either). */
  const IDLE = { onLink: 0, relayed: 0 };

  beforeAll(async () => {
    database = await freshDatabase('pglite');
    const opts = { database, redisUrl: REDIS_URL, redisPrefix, jwtSecret: TEST_JWT_SECRET };
    a = await buildApp({ ...opts, seedDemo: true });
    b = await buildApp(opts);
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.ready();
    key = await a.agentKeys.issue(SHIP);
  }, 60_000);
  beforeEach(async () => {
    ship = () => undefined;
    if (agent && !agent.closed) return;
    // Everything but talk: a talk request is one the agent does not handle.
    agent = await RawAgent.connect(portOf(a), SHIP, key, { hello: {}, capabilities: ['live', 'playback', 'pictures', 'ptz'], onMessage: (msg, raw) => ship(msg, raw) });
    await expect.poll(() => a.agents.get(SHIP)?.ready).toBe(true);
    await expect.poll(() => b.linkStreams.linkUp(SHIP)).toBe(true);
    // What the case before asked is closed on both instances (a relayed close reaches A a little later).
    await expect.poll(streams, { timeout: 5_000 }).toEqual(IDLE);
  });
  afterAll(async () => {
    await agent?.close();
    await b?.close();
    await a?.close();
    await database?.close();
  });

  describe.each([
    ['on the instance holding the link', () => a],
    ['through the instance holding the link', () => b],
  ])('%s', (_where, instance) => {
    it('resolves with the answer naming its stream, then closes the stream', async () => {
      ship = (msg, raw) => {
        if (msg.type === 'ptz.stop') raw.send({ type: 'ptz.done', requestId: msg.requestId });
      };
      const answer = await ask(instance().linkStreams, stop());
      expect(answer).toEqual({ type: 'ptz.done', requestId: expect.any(Number) as number });
      expect(agent?.of('ptz.stop').at(-1)).toEqual({ type: 'ptz.stop', requestId: expect.any(Number) as number, cameraId: CAMERA });
      await expect.poll(streams, { timeout: 5_000 }).toEqual(IDLE);
    });

    it('fails `refused` (503) and `busy` (503) with the message the feature made of the ship’s refusal', async () => {
      ship = (msg, raw) => {
        if (msg.type === 'ptz.stop') raw.send({ type: 'ptz.failed', requestId: msg.requestId, code: msg.cameraId === CAMERA ? 'failed' : 'full', message: 'the camera did not move' });
      };
      expect(await failure(ask(instance().linkStreams, stop()))).toEqual({ reason: 'refused', status: 503, message: 'the camera did not move' });
      const busy = stop({ request: (requestId) => ({ type: 'ptz.stop', requestId, cameraId: 'S1001-C02-1' }) });
      expect(await failure(ask(instance().linkStreams, busy))).toEqual({ reason: 'busy', status: 503, message: 'the camera did not move' });
    });

    it('fails `timeout` (503) when the ship does not answer in time; its late answer reaches nobody', async () => {
      const asked = agent?.of('ptz.stop').length ?? 0;
      const started = Date.now();
      expect(await failure(ask(instance().linkStreams, stop({ timeoutMs: 300 })))).toEqual({ reason: 'timeout', status: 503, message: 'the ship did not answer within 0.3 s' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      await agent?.until(() => (agent?.of('ptz.stop').length ?? 0) > asked, 'the stop');
      await expect.poll(streams, { timeout: 5_000 }).toEqual(IDLE);
      const late = agent?.of('ptz.stop').at(-1)?.requestId ?? 0;
      const dropped: string[] = [];
      const onDropped = (d: Dropped) => {
        if (d.id === late) dropped.push(d.reason);
      };
      a.agents.events.on('dropped', onDropped);
      agent?.send({ type: 'ptz.done', requestId: late });
      // Shore had closed the stream: the answer is dropped as one for a stream closed here (on A, which holds the link).
      await expect.poll(() => dropped).toEqual(['closed']);
      a.agents.events.off('dropped', onDropped);
    });

    it('fails `offline` (503) when the link goes before the ship answers', async () => {
      ship = (msg, raw) => {
        if (msg.type === 'ptz.stop') void raw.close();
      };
      const lost = await failure(ask(instance().linkStreams, stop()));
      expect(lost).toMatchObject({ reason: 'offline', status: 503, message: expect.stringMatching(/^the ship went offline before answering/) as string });
      await expect.poll(() => b.linkStreams.linkUp(SHIP)).toBe(false);
    });

    it('fails `offline` (503) at once for a ship no instance holds, and `unsupported` (409) for a kind its agent does not handle', async () => {
      const started = Date.now();
      expect(await failure(ask(instance().linkStreams, stop({ shipId: 'S1002' })))).toMatchObject({ reason: 'offline', status: 503, message: expect.stringMatching(/^the ship is offline: /) as string });
      expect(Date.now() - started).toBeLessThan(2_000);
      const talk: Question<'talk', null> = {
        shipId: SHIP,
        kind: 'talk',
        request: (streamId) => ({ type: 'talk.open', streamId, cameraId: CAMERA, codec: 'opus', format: 'opus', talker: 'Op' }),
        answer: (_msg, reply) => reply.done(null),
        timeoutMs: 10_000,
      };
      expect(await failure(ask(instance().linkStreams, talk))).toMatchObject({ reason: 'unsupported', status: 409, message: expect.stringMatching(/does not handle talk/) as string });
      expect(agent?.received.some((m) => m.type === 'talk.open')).toBe(false);
    });

    it('answers what will do (a list without its last thumbnail) when time runs out before the rest follows', async () => {
      const entry = (i: number): ShipPictureEntry => ({ pictureId: `pic-ask-0000${i}`, cameraId: CAMERA, time: Date.now() - i * 1_000, bytes: 40_000, width: 1280, height: 720, origin: 'manual', thumbBytes: 3 });
      ship = (msg, raw) => {
        if (msg.type !== 'pictures.list') return;
        raw.send({ type: 'pictures.listed', streamId: msg.streamId, cameraId: CAMERA, truncated: false, pictures: [entry(1), entry(2)] });
        raw.sendFrame(BINARY_KIND.pictures, msg.streamId, Uint8Array.of(1, 2, 3));
      };
      // The thumbnails that came: the partial answer holds them as they arrive.
      const thumbs: number[][] = [];
      const answer = await ask<'pictures', { ids: string[]; thumbs: number[][] }>(instance().linkStreams, {
        shipId: SHIP,
        kind: 'pictures',
        request: (streamId) => ({ type: 'pictures.list', streamId, cameraId: CAMERA, from: 0, to: Date.now(), limit: 10 }),
        answer: (msg, reply) => {
          if (msg.type === 'pictures.listed') reply.partial({ ids: msg.pictures.map((p) => p.pictureId), thumbs });
        },
        data: (payload, reply) => {
          thumbs.push([...payload]);
          if (thumbs.length === 2) reply.done({ ids: [], thumbs });
        },
        timeoutMs: 1_000,
      });
      expect(answer).toEqual({ ids: ['pic-ask-00001', 'pic-ask-00002'], thumbs: [[1, 2, 3]] });
    });

    it('ends with the reason of an aborted signal, and closes the stream', async () => {
      const controller = new AbortController();
      ship = (msg) => {
        if (msg.type === 'ptz.stop') controller.abort(new Error('the server is shutting down'));
      };
      await expect(ask(instance().linkStreams, stop({ signal: controller.signal }))).rejects.toThrow('the server is shutting down');
      await expect.poll(streams, { timeout: 5_000 }).toEqual(IDLE);
    });
  });
});

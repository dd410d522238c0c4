import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  Duplex,
  LINK_TYPES,
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  BINARY_KIND,
  LINK_KINDS,
  STREAM_HEADER_BYTES,
  VOD_MAX_SPANS,
  agreedVersion,
  checkAgentMessage,
  checkShoreMessage,
  decodeStreamFrame,
  encodeStreamFrame,
  helloProtocol,
  isAgentMessageOf,
  parseJson,
  parseLinkFrame,
  routeOf,
  withStreamId,
} from '../src/index.ts';

const hello = {
  type: 'hello',
  protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION },
  agentVersion: '1.2.3',
  capabilities: ['live', 'playback'],
  link: { linkType: 'VSAT', quality: 72, duplex: 'BOTH' },
  cameras: [{ cameraId: 'S1001-C01-1', online: true, recording: false, recordingSince: null }],
};
const liveStart = { type: 'live.start', streamId: 9, cameraId: 'S1001-C01-1', encode: { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' } };

describe('binary frames of the agent link', () => {
  it('carry kind and stream id in a 5-byte header, both ways, for every binary kind', () => {
    const payload = new Uint8Array([0, 1, 2, 250, 255]);
    for (const [kind, code] of Object.entries(BINARY_KIND)) {
      for (const streamId of [0, 1, 0x4000_0000, 0xffff_ffff]) {
        const frame = encodeStreamFrame(code, streamId, payload);
        expect(frame.length).toBe(STREAM_HEADER_BYTES + payload.length);
        expect(frame[0]).toBe(code);
        const parsed = parseLinkFrame(frame);
        expect(parsed).toEqual({ ok: true, frame: { kind, streamId, payload } });
      }
    }
  });

  it('reads a frame that sits inside a larger buffer, without copying the payload', () => {
    const frame = encodeStreamFrame(BINARY_KIND.talk, 0x0102_0304, new Uint8Array([7, 8, 9]));
    const backing = new Uint8Array(64);
    backing.set(frame, 11);
    const view = backing.subarray(11, 11 + frame.length);
    const decoded = decodeStreamFrame(view);
    expect(decoded).toMatchObject({ kind: BINARY_KIND.talk, streamId: 0x0102_0304 });
    expect([...(decoded?.payload ?? [])]).toEqual([7, 8, 9]);
    expect(decoded?.payload.buffer).toBe(backing.buffer);
  });

  it('refuses a stream id that is not a u32 rather than wrap it', () => {
    for (const bad of [-1, 0x1_0000_0000, 1.5, Number.NaN]) expect(() => encodeStreamFrame(BINARY_KIND.live, bad, new Uint8Array(0))).toThrow(RangeError);
  });

  it('says why a frame cannot be routed: too short for its header, or a kind no group has', () => {
    expect(decodeStreamFrame(new Uint8Array(4))).toBeUndefined();
    expect(parseLinkFrame(new Uint8Array(4))).toMatchObject({ ok: false, error: 'short' });
    // An empty payload is a frame (a stream may send nothing but its header).
    expect(parseLinkFrame(encodeStreamFrame(BINARY_KIND.live, 3, new Uint8Array(0)))).toMatchObject({ ok: true, frame: { kind: 'live', streamId: 3 } });
    const unknown = parseLinkFrame(encodeStreamFrame(9, 3, new Uint8Array(2)));
    expect(unknown).toMatchObject({ ok: false, error: 'unknownKind' });
    if (!unknown.ok) expect(unknown.message).toMatch(/binary kind 9 is not one of 1, 2, 3, 4/);
    expect(parseLinkFrame(encodeStreamFrame(0, 3, new Uint8Array(2)))).toMatchObject({ ok: false, error: 'unknownKind' });
  });
});

describe('messages of the agent link', () => {
  it('accepts what each side may send, and only that side', () => {
    expect(checkAgentMessage(hello)).toEqual({ ok: true, message: hello });
    expect(checkAgentMessage({ type: 'live.started', streamId: 4 }).ok).toBe(true);
    expect(checkAgentMessage({ type: 'link.queue', bufferedBytes: 0, queuedMs: 12.5 }).ok).toBe(true);
    expect(checkShoreMessage(liveStart)).toEqual({ ok: true, message: liveStart });
    expect(checkShoreMessage({ type: 'welcome', shipId: 'S1001', serverTime: 1, protocol: AGENT_LINK_VERSION }).ok).toBe(true);
    // A shore message from an agent (and the reverse) is an unknown type there.
    expect(checkAgentMessage(liveStart)).toEqual({ ok: false, error: 'unknown message type "live.start"' });
    expect(checkShoreMessage({ type: 'live.started', streamId: 4 })).toEqual({ ok: false, error: 'unknown message type "live.started"' });
  });

  it('refuses a malformed message and names the field that is wrong', () => {
    const refused = (value: unknown) => {
      const c = checkAgentMessage(value);
      if (c.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
      return c.error;
    };
    expect(refused(null)).toMatch(/JSON object with a string "type"/);
    expect(refused([hello])).toMatch(/JSON object with a string "type"/);
    expect(refused({ streamId: 1 })).toMatch(/string "type"/);
    expect(refused({ type: 'teleport' })).toBe('unknown message type "teleport"');
    expect(refused({ type: 'live.started' })).toMatch(/^live\.started: .*streamId/);
    expect(refused({ type: 'live.started', streamId: -1 })).toMatch(/^live\.started: \/streamId /);
    expect(refused({ type: 'live.started', streamId: 0x1_0000_0000 })).toMatch(/^live\.started: \/streamId /);
    expect(refused({ type: 'live.failed', streamId: 1, message: 'x'.repeat(5000) })).toMatch(/^live\.failed: \/message /);
    expect(refused({ ...hello, link: { ...hello.link, quality: 101 } })).toMatch(/^hello: \/link\/quality /);
    expect(refused({ ...hello, link: { ...hello.link, linkType: 'CARRIER_PIGEON' } })).toMatch(/^hello: \/link\/linkType/);
    expect(refused({ ...hello, protocol: 2 })).toMatch(/^hello: \/protocol /);
    const spans = Array.from({ length: VOD_MAX_SPANS + 1 }, (_, i) => ({ start: i, end: i + 1 }));
    expect(refused({ type: 'vod.result', requestId: 1, cameraId: 'S1001-C01-1', spans })).toMatch(/^vod\.result: \/spans /);
    expect(checkShoreMessage({ ...liveStart, encode: { ...liveStart.encode, codec: 'h265' } })).toMatchObject({ ok: false, error: expect.stringMatching(/^live\.start: \/encode\/codec /) });
    expect(checkShoreMessage({ type: 'playback.start', streamId: 1, cameraId: 'c', encode: liveStart.encode, start: 0, end: 1, from: 0, speed: 3 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^playback\.start: \/speed /),
    });
  });

  it('takes link reports with what the agent measured beside the link’s kind, and without (an older agent)', () => {
    const measured = { type: 'link', linkType: 'FBB', quality: 64, duplex: 'BOTH', measured: { periodMs: 60_000, rttMs: 712, goodputKbps: 181.5, stalls: 2, lossPercent: 0.31 } };
    expect(checkAgentMessage(measured)).toEqual({ ok: true, message: measured });
    expect(checkAgentMessage({ type: 'link', linkType: 'FBB', quality: 64, duplex: 'BOTH' }).ok).toBe(true);
    // A period that gave no figure leaves it out (no pong yet; no acknowledgements from a version 2 shore).
    expect(checkAgentMessage({ ...hello, link: { ...hello.link, measured: { periodMs: 0 } } }).ok).toBe(true);
    expect(checkAgentMessage({ ...measured, measured: { ...measured.measured, rttMs: -1 } })).toMatchObject({ ok: false, error: expect.stringMatching(/^link: \/measured\/rttMs /) });
    // A shore that knows only the kind, quality and duplex of a link report takes the new one as well.
    const before = Compile(Type.Object({ type: Type.Literal('link'), linkType: Type.Enum(LINK_TYPES), quality: Type.Integer({ minimum: 0, maximum: 100 }), duplex: Duplex }));
    expect(before.Check(measured)).toBe(true);
  });

  it('takes what the ship recorder can keep in hello and link reports, and both without it (an older agent)', () => {
    const storage = { keepDays: 90, holdsDays: 41.5, short: true, allowedBytes: 900_000_000_000, usedBytes: 300_000_000_000, bytesPerDay: 21_700_000_000, freeBytes: 601_000_000_000 };
    expect(checkAgentMessage({ ...hello, storage }).ok).toBe(true);
    expect(checkAgentMessage({ type: 'link', ...hello.link, storage }).ok).toBe(true);
    // Nothing recorded lately: no projection yet.
    expect(checkAgentMessage({ type: 'link', ...hello.link, storage: { ...storage, holdsDays: null, short: false } }).ok).toBe(true);
    expect(checkAgentMessage({ type: 'link', ...hello.link, storage: { ...storage, allowedBytes: -1 } })).toMatchObject({ ok: false, error: expect.stringMatching(/^link: \/storage\/allowedBytes /) });
    // A shore that knows only the kind, quality and duplex of a link report takes one with storage as well.
    const before = Compile(Type.Object({ type: Type.Literal('link'), linkType: Type.Enum(LINK_TYPES), quality: Type.Integer({ minimum: 0, maximum: 100 }), duplex: Duplex }));
    expect(before.Check({ type: 'link', ...hello.link, storage })).toBe(true);
  });

  it('renames the stream or request a message names, leaving the rest and control messages alone', () => {
    const ended: AgentMessage = { type: 'live.ended', streamId: 5, reason: 'stopped' };
    expect(withStreamId(ended, 42)).toEqual({ type: 'live.ended', streamId: 42, reason: 'stopped' });
    expect(ended.streamId).toBe(5);
    expect(routeOf(withStreamId({ type: 'ptz.done', requestId: 9 }, 3))).toEqual({ kind: 'ptz', id: 3 });
    expect(withStreamId({ type: 'vod.query', requestId: 7, cameraId: 'c', start: 0, end: 1 }, 8)).toEqual({ type: 'vod.query', requestId: 8, cameraId: 'c', start: 0, end: 1 });
    const queue: AgentMessage = { type: 'link.queue', bufferedBytes: 1, queuedMs: 1 };
    expect(withStreamId(queue, 3)).toBe(queue);
  });

  it('parses JSON text and says why it is not JSON', () => {
    expect(parseJson('{"type":"link.queue"}')).toEqual({ ok: true, value: { type: 'link.queue' } });
    expect(parseJson('{"type":')).toMatchObject({ ok: false, error: expect.stringMatching(/^malformed JSON: /) });
  });

  it('routes a kind message by its kind and stream (or request) id; control messages have no route', () => {
    expect(routeOf({ type: 'live.ended', streamId: 5, reason: 'stopped' })).toEqual({ kind: 'live', id: 5 });
    expect(routeOf({ type: 'vod.result', requestId: 6, cameraId: 'c', spans: [] })).toEqual({ kind: 'playback', id: 6 });
    expect(routeOf({ type: 'vod.query', requestId: 7, cameraId: 'c', start: 0, end: 1 })).toEqual({ kind: 'playback', id: 7 });
    expect(routeOf({ type: 'talk.close', streamId: 8 })).toEqual({ kind: 'talk', id: 8 });
    expect(routeOf({ type: 'ptz.done', requestId: 9 })).toEqual({ kind: 'ptz', id: 9 });
    expect(routeOf({ type: 'link.queue', bufferedBytes: 1, queuedMs: 1 })).toBeUndefined();
    expect(routeOf({ type: 'welcome', shipId: 'S1', serverTime: 0, protocol: 2 })).toBeUndefined();
    const msg: AgentMessage = { type: 'pictures.failed', streamId: 1, code: 'cameraOffline', message: 'no camera' };
    expect(LINK_KINDS.filter((k) => isAgentMessageOf(k, msg))).toEqual(['pictures']);
  });
});

describe('link protocol versions', () => {
  it('agrees on the highest version both ranges hold, or on none', () => {
    expect(agreedVersion({ min: 2, max: 2 }, { min: 2, max: 2 })).toBe(2);
    expect(agreedVersion({ min: 1, max: 5 }, { min: 2, max: 3 })).toBe(3);
    expect(agreedVersion({ min: 3, max: 5 }, { min: 2, max: 2 })).toBeUndefined();
    expect(agreedVersion({ min: 1, max: 1 }, { min: 2, max: 4 })).toBeUndefined();
  });

  it("reads the version of any agent's hello, a version-1 agent's single number included", () => {
    expect(helloProtocol(hello)).toEqual({ min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION });
    // Version 1 agents sent one number and none of the newer fields: still readable, to refuse them clearly.
    expect(helloProtocol({ type: 'hello', protocol: 1, agentVersion: '0.1.0', link: hello.link, cameras: [] })).toEqual({ min: 1, max: 1 });
    expect(helloProtocol({ type: 'link', ...hello.link })).toBeUndefined();
    expect(helloProtocol({ type: 'hello', protocol: 'two' })).toBeUndefined();
  });
});

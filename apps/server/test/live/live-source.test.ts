import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CAMERA_SILENT_REASON, type ShoreMessageOf } from '@ship-cctv/protocol';
import type { LinkStream, StreamHandler } from '../../src/core/ship-link/gateway.ts';
import { LiveSource } from '../../src/modules/live/live-source.ts';
import { loadClip } from '../playback/helpers.ts';

const model = (id: number, width: number, height: number) => ({ id, displayName: `${width}x${height}`, width, height, frameRate: 10, bitrateKbps: 300, codec: 'h264' });

describe('LiveSource', () => {
  it('ignores the rest of a delivery once a lag report switched the definition within it (no crash on a reset hub)', async () => {
    const clip = await loadClip(2);
    const handlers: StreamHandler<'live'>[] = [];
    const sent: ShoreMessageOf<'live'>[] = [];
    let nextId = 1;
    const source: LiveSource = new LiveSource({
      shipId: 'S1',
      cameraId: 'S1-C01-1',
      requested: model(6, 640, 360),
      lowest: model(5, 320, 180),
      log: pino({ level: 'silent' }),
      openStream: (handler) => {
        handlers.push(handler);
        const id = nextId++;
        const stream = { shipId: 'S1', kind: 'live', id, open: true, send: (m: ShoreMessageOf<'live'>) => sent.push(m), sendBinary: () => undefined, close: () => undefined } as unknown as LinkStream<'live'>;
        return { ok: true, stream };
      },
      // The link cannot carry it: the first report switches to the lowest definition, synchronously.
      onLag: (s) => s.setDegraded(true),
    });
    source.start();
    const first = handlers[0];
    if (!first?.data) throw new Error('no stream opened');
    // Media time far behind the wall clock: the meter reports at the second fragment of one delivery.
    const fragments = clip.fragments.slice(0, 12);
    const bytes = new Uint8Array([...clip.init, ...fragments.flatMap((f) => [...f])]);
    const realNow = Date.now;
    let now = 1_000_000;
    Date.now = () => (now += 2_000);
    try {
      expect(() => first.data?.(bytes)).not.toThrow();
    } finally {
      Date.now = realNow;
    }
    // The switch happened: the old stream was stopped and a new one asked for at the lowest definition.
    expect(sent.filter((m) => m.type === 'live.stop').map((m) => m.streamId)).toEqual([1]);
    expect(sent.filter((m) => m.type === 'live.start').map((m) => [m.streamId, m.type === 'live.start' ? m.encode.width : 0])).toEqual([
      [1, 640],
      [2, 320],
    ]);
    source.stop();
  });

  it('a source made for a degraded ship opens one stream, at the lowest definition (not a second, orphaned one)', () => {
    const sent: ShoreMessageOf<'live'>[] = [];
    let nextId = 1;
    const source = new LiveSource({
      shipId: 'S1',
      cameraId: 'S1-C01-1',
      requested: model(6, 640, 360),
      lowest: model(5, 320, 180),
      log: pino({ level: 'silent' }),
      openStream: () => {
        const id = nextId++;
        const stream = { shipId: 'S1', kind: 'live', id, open: true, send: (m: ShoreMessageOf<'live'>) => sent.push(m), sendBinary: () => undefined, close: () => undefined } as unknown as LinkStream<'live'>;
        return { ok: true, stream };
      },
    });
    // As LiveService.join does for a ship whose uplink is degraded: the definition first, then start.
    source.setDegraded(true);
    source.start();
    expect(sent.map((m) => [m.type, m.streamId, m.type === 'live.start' ? m.encode.width : 0])).toEqual([['live.start', 1, 320]]);
    source.stop();
    expect(sent.map((m) => m.type)).toEqual(['live.start', 'live.stop']);
  });

  it('passes an identical init segment of the running stream on to no one: one codec message, one init to viewers and taps', async () => {
    const clip = await loadClip(2);
    let handler: StreamHandler<'live'> | undefined;
    const tapped: string[] = [];
    const source = new LiveSource({
      shipId: 'S1',
      cameraId: 'S1-C01-1',
      requested: model(6, 640, 360),
      lowest: model(5, 320, 180),
      log: pino({ level: 'silent' }),
      taps: new Set([{ init: () => tapped.push('init'), fragment: () => tapped.push('fragment'), end: () => tapped.push('end') }]),
      openStream: (h) => {
        handler = h;
        const stream = { shipId: 'S1', kind: 'live', id: 1, open: true, send: () => undefined, sendBinary: () => undefined, close: () => undefined } as unknown as LinkStream<'live'>;
        return { ok: true, stream };
      },
    });
    const json: string[] = [];
    const sent: string[] = [];
    source.addViewer({
      sendJson: (m) => json.push(m.type),
      consumer: { send: (_data, unit) => sent.push(unit.kind), bufferedAmount: () => 0, drop: () => undefined },
    });
    source.start();
    handler?.data?.(clip.init);
    for (const f of clip.fragments.slice(0, 5)) handler?.data?.(f);
    handler?.data?.(new Uint8Array(clip.init));
    for (const f of clip.fragments.slice(5, 10)) handler?.data?.(f);
    expect(json.filter((t) => t === 'codec')).toHaveLength(1);
    expect(tapped.filter((t) => t === 'init')).toHaveLength(1);
    expect(tapped.filter((t) => t === 'fragment')).toHaveLength(10);
    expect(sent.filter((k) => k === 'init')).toHaveLength(1);
    expect(sent.filter((k) => k === 'fragment').length).toBeGreaterThan(5);

    // The stream begins again on the same link stream (a relay that followed its ship to a new
    // owner): that start's init reaches everyone though its bytes are the same, since its pictures'
    // times begin anew.
    handler?.message({ type: 'live.started', streamId: 1 });
    handler?.data?.(new Uint8Array(clip.init));
    for (const f of clip.fragments.slice(0, 3)) handler?.data?.(f);
    expect(json.filter((t) => t === 'codec')).toHaveLength(2);
    expect(tapped.filter((t) => t === 'init')).toHaveLength(2);
    expect(sent.filter((k) => k === 'init')).toHaveLength(2);
    source.stop();
  });

  it.each([
    ['said silent: viewers are told, the lag is measured afresh when it is back', true],
    ['not said silent: the same pause reads as a queue on the link', false],
  ] as const)('a camera that pauses for 45 s, %s', async (_name, saidSilent) => {
    const clip = await loadClip(4);
    let handler: StreamHandler<'live'> | undefined;
    const excess: number[] = [];
    const source = new LiveSource({
      shipId: 'S1',
      cameraId: 'S1-C01-1',
      requested: model(6, 640, 360),
      lowest: model(5, 320, 180),
      log: pino({ level: 'silent' }),
      openStream: (h) => {
        handler = h;
        const stream = { shipId: 'S1', kind: 'live', id: 1, open: true, send: () => undefined, sendBinary: () => undefined, close: () => undefined } as unknown as LinkStream<'live'>;
        return { ok: true, stream };
      },
      onLag: (_s, ms) => excess.push(ms),
    });
    const statuses: string[] = [];
    source.addViewer({
      sendJson: (m) => {
        if (m.type === 'status') statuses.push(`${m.state}${m.reason ? `: ${m.reason}` : ''}`);
      },
      consumer: { send: () => undefined, bufferedAmount: () => 0, drop: () => undefined },
    });
    source.start();
    const realNow = Date.now;
    let now = 1_000_000;
    Date.now = () => now;
    try {
      handler?.data?.(clip.init);
      // Pictures at their pace (10 a second), then nothing for 45 s, then the rest at their pace:
      // their media time goes on from before the pause, as a camera session's clock does.
      const half = clip.fragments.length / 2;
      clip.fragments.forEach((f, i) => {
        if (i === half) {
          if (saidSilent) source.onCameraSilent();
          now += 45_000;
        }
        now += 100;
        handler?.data?.(f);
      });
    } finally {
      Date.now = realNow;
    }
    if (saidSilent) {
      expect(statuses.slice(-2)).toEqual([`stalled: ${CAMERA_SILENT_REASON}`, 'playing']);
      expect(Math.max(...excess)).toBeLessThan(500);
    } else {
      expect(statuses.at(-1)).toBe('playing');
      expect(Math.max(...excess)).toBeGreaterThan(40_000);
    }
    source.stop();
  });
});

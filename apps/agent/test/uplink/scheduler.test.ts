import { describe, expect, it } from 'vitest';
import { BINARY_KIND, encodeStreamFrame } from '@ship-cctv/protocol';
import { UplinkScheduler } from '../../src/uplink/scheduler.ts';
import { SendWindow } from '../../src/uplink/send-window.ts';

/** A socket whose buffer the test fills and drains by hand. */
function socket() {
  const written: string[] = [];
  const s = {
    held: 0,
    written,
    sink: {
      write: (data: string | Uint8Array) => {
        const text = typeof data === 'string' ? data : Buffer.from(data).toString();
        written.push(text);
        s.held += text.length;
      },
      buffered: () => s.held,
    },
  };
  return s;
}
const tick = () => new Promise((r) => setTimeout(r, 30));
const bytes = (text: string) => Buffer.from(text);

describe('the uplink scheduler', () => {
  it('writes at once while the socket has room', () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 100, pollMs: 5 });
    up.send('live', bytes('L1'));
    up.send('control', '{"c":1}');
    expect(s.written).toEqual(['L1', '{"c":1}']);
    up.close();
  });

  it('lets control overtake queued media, and live overtake pictures and playback, once the socket drains', async () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 100, pollMs: 5 });
    s.held = 500; // the socket is full
    up.send('playback', bytes('P1'));
    up.send('pictures', bytes('I1'));
    up.send('live', bytes('L1'));
    up.send('pictures', bytes('I2'));
    up.send('live', bytes('L2'));
    up.send('control', '{"c":1}');
    up.send('talk', bytes('T1'));
    expect(s.written).toEqual([]);
    expect(up.bytesAhead('control')).toBe(500 + 7);
    expect(up.bytesAhead('live')).toBe(500 + 7 + 2 + 4);
    expect(up.bytesAhead('playback')).toBe(500 + 7 + 2 + 4 + 4 + 2);
    s.held = 0;
    await tick();
    expect(s.written).toEqual(['{"c":1}', 'T1', 'L1', 'L2', 'I1', 'I2', 'P1']);
    up.close();
  });

  it('sends backfill last, after playback, and a backfill message after the bytes queued before it', async () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 100, pollMs: 5 });
    s.held = 500;
    up.send('backfill', bytes('B1'));
    up.send('backfill', '{"sent":1}');
    up.send('playback', bytes('P1'));
    up.send('pictures', bytes('I1'));
    up.send('live', bytes('L1'));
    expect(up.bytesAhead('backfill')).toBe(500 + 2 + 2 + 2 + 2 + 10);
    s.held = 0;
    await tick();
    expect(s.written).toEqual(['L1', 'I1', 'P1', 'B1', '{"sent":1}']);
    up.close();
  });

  it('feeds only while under the low-water mark: a late control message goes before media still waiting', async () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 3, pollMs: 5 });
    for (let i = 0; i < 5; i++) up.send('live', bytes(`L${i}`));
    expect(s.written).toEqual(['L0', 'L1']); // 4 bytes held: over the mark
    up.send('control', 'C');
    s.held = 0;
    await tick();
    expect(s.written.slice(0, 4)).toEqual(['L0', 'L1', 'C', 'L2']);
    s.held = 0;
    await tick();
    s.held = 0;
    await tick();
    // Nothing lost, nothing reordered within the class.
    expect(s.written.filter((w) => w.startsWith('L'))).toEqual(['L0', 'L1', 'L2', 'L3', 'L4']);
    up.close();
  });

  it('counts what left before shore acknowledges (the hello, pings) in what its acknowledgements cover', () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 1_000_000 });
    // Before shore's welcome: the hello (500 bytes, 508 on the wire) and a ping (6 on the wire).
    up.send('control', 'h'.repeat(500));
    up.sentBeside(0);
    up.useWindow(new SendWindow({ initialBytes: 50_000 }));
    up.send('live', bytes('L'.repeat(1_000)));
    // Shore's first acknowledgement covers the hello and the ping, not the live frame (1,008 on the wire).
    up.acknowledged(514);
    expect(up.bytesInFlight).toBe(1_008);
    up.acknowledged(1_522);
    expect(up.bytesInFlight).toBe(0);
    up.close();
  });

  it('drops what waits when the link closes, and takes nothing more', async () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 1, pollMs: 5 });
    s.held = 10;
    up.send('live', bytes('L1'));
    up.close();
    up.send('control', 'C');
    s.held = 0;
    await tick();
    expect(s.written).toEqual([]);
    expect(up.bytesAhead('playback')).toBe(0);
  });

  it("forgets a stopped stream's frames still waiting, and nothing of other streams", async () => {
    const s = socket();
    const up = new UplinkScheduler(s.sink, { lowWaterBytes: 1, pollMs: 5 });
    s.held = 10; // full: everything waits
    const frame = (kind: number, id: number, text: string) => encodeStreamFrame(kind, id, bytes(text));
    up.send('live', frame(BINARY_KIND.live, 7, 'old-1'));
    up.send('live', frame(BINARY_KIND.live, 8, 'new-1'));
    up.send('playback', frame(BINARY_KIND.playback, 7, 'pb-1'));
    up.send('live', frame(BINARY_KIND.live, 7, 'old-2'));
    up.send('control', '{"type":"live.ended","streamId":7}');
    expect(up.discardStream(BINARY_KIND.live, 7)).toBe(2 * (5 + 5));
    expect(up.bytesAhead('live')).toBe(10 + 34 + 5 + 5);
    for (let i = 0; i < 4; i++) {
      s.held = 0;
      await tick();
    }
    expect(s.written.map((w) => (w.startsWith('{') ? w : w.slice(5)))).toEqual(['{"type":"live.ended","streamId":7}', 'new-1', 'pb-1']);
    up.close();
  });

  describe('with shore acknowledging (link protocol 3)', () => {
    it('keeps only a window in flight, the rest queued in priority order, and lets more go as shore acknowledges', () => {
      const s = socket();
      const up = new UplinkScheduler(s.sink, { lowWaterBytes: 1_000_000, pollMs: 5 });
      // Counted as on the wire: each of these small messages has 6 bytes of WebSocket framing.
      up.useWindow(new SendWindow({ initialBytes: 20, minBytes: 20 }));
      s.held = 0;
      up.send('pictures', bytes('I1-------')); // 15 on the wire: under the window, goes
      up.send('pictures', bytes('I2-------')); // 15 in flight < 20: goes (one message may overshoot)
      up.send('pictures', bytes('I3-------'));
      up.send('live', bytes('L1'));
      up.send('control', 'C'); // control never waits for the window
      expect(s.written).toEqual(['I1-------', 'I2-------', 'C']);
      expect(up.bytesInFlight).toBe(15 + 15 + 7);
      // The socket wrote everything: what is ahead of live is what shore has not acknowledged, plus live itself.
      expect(up.bytesAhead('live')).toBe(37 + 2);
      up.acknowledged(30); // 7 in flight: live goes first, then the picture (7 + 8 < 20)
      expect(s.written.slice(3)).toEqual(['L1', 'I3-------']);
      expect(up.bytesInFlight).toBe(7 + 8 + 15);
      up.close();
    });

    it('holds background classes to 1× the measured window while live may use the full gain', () => {
      const s = socket();
      const window = new SendWindow({ initialBytes: 100, minBytes: 1, gain: 2, backgroundGain: 1 });
      const up = new UplinkScheduler(s.sink, { lowWaterBytes: 1_000_000, pollMs: 1_000 });
      up.useWindow(window);
      // Measurements: 150 B acknowledged over 1.1 s (136 B/s), a 1 s round trip.
      const t = performance.now();
      window.onSend(100, t - 2_000);
      window.onAck(50, t - 1_500);
      window.onSend(100, t - 1_400);
      window.onAck(200, t - 400);
      const background = window.limit(performance.now(), true);
      expect(background).toBe(136);
      expect(window.limit(performance.now())).toBe(273);
      up.send('playback', Buffer.alloc(background + 20));
      up.send('playback', Buffer.alloc(10)); // 156 in flight ≥ 136: waits
      up.send('live', Buffer.alloc(50)); // 156 < 273: live goes
      expect(s.written.map((w) => w.length)).toEqual([background + 20, 50]);
      up.close();
    });
  });
});

import { describe, expect, it } from 'vitest';
import { UplinkScheduler } from '../../src/uplink/scheduler.ts';

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
});

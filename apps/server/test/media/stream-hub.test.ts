import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelaySplitter, type InitSegment, type MediaFragment } from '../../src/core/media/fmp4.ts';
import { StreamHub, type StreamHubOptions } from '../../src/core/media/stream-hub.ts';
import { FakeConsumer, makeClip, probe, writeParts } from './helpers.ts';

interface Stream {
  init: InitSegment;
  fragments: MediaFragment[];
}

let dir: string;
/** 30 frames at 10 fps, one fragment per frame, keyframes at 0, 10, 20. */
let small: Stream;
let large: Stream;

async function load(width: number, height: number): Promise<Stream> {
  const file = await makeClip(dir, { name: `hub-${width}`, width, height, profile: 'baseline' });
  const units = new RelaySplitter().push(new Uint8Array(await readFile(file)));
  const init = units.find((u): u is InitSegment => u.kind === 'init');
  if (!init) throw new Error('no init');
  return { init, fragments: units.filter((u): u is MediaFragment => u.kind === 'fragment') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hub-test-'));
  [small, large] = await Promise.all([load(320, 180), load(640, 360)]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Hub = StreamHub<InitSegment, MediaFragment>;
type Consumer = FakeConsumer<InitSegment, MediaFragment>;

function frag(i: number, stream = small): MediaFragment {
  const f = stream.fragments[i];
  if (!f) throw new Error(`no fragment ${i}`);
  return f;
}

/** A hub on a hand-moved clock, fed the small clip's init. */
function makeHub(options: StreamHubOptions = {}) {
  const clock = { now: 0 };
  const hub: Hub = new StreamHub({ now: () => clock.now, ...options });
  hub.setInit(small.init);
  /** Push fragments [from, to) of a stream, 100 ms apart (10 fps). */
  const push = (from: number, to: number, stream = small) => {
    for (let i = from; i < to; i++) {
      clock.now += 100;
      hub.pushFragment(frag(i, stream));
    }
  };
  return { hub, clock, push };
}

function seqs(c: Consumer): number[] {
  return c.fragments().map((f) => f.sequenceNumber);
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i + 1); // sequence numbers are 1-based

describe('StreamHub joining', () => {
  it('sends a mid-GOP joiner the init and the cached GOP at once, then every fragment in order', async () => {
    const { hub, push } = makeHub();
    const early = new FakeConsumer<InitSegment, MediaFragment>('early');
    hub.addConsumer(early);
    push(0, 15);
    const late = new FakeConsumer<InitSegment, MediaFragment>('late');
    hub.addConsumer(late);
    // Synchronously inside addConsumer: init + fragments 10..14 (the GOP since the keyframe at 10).
    expect(late.kinds()).toBe('IKffff');
    expect(seqs(late)).toEqual(range(10, 15));
    push(15, 30);
    expect(seqs(late)).toEqual(range(10, 30));
    expect(seqs(early)).toEqual(range(0, 30));
    expect(late.received[0]).toEqual({ kind: 'init', init: small.init });
    expect(hub.consumerStats(late)).toMatchObject({ state: 'live', sentFragments: 20, skippedFragments: 0 });

    // What the late joiner got is a valid, decodable MP4 on its own.
    const file = await writeParts(join(dir, 'late-joiner.mp4'), late.bytes);
    const probed = await probe(file);
    expect(probed.frames).toBe(20);
    expect([probed.width, probed.height]).toEqual([320, 180]);
  });

  it('makes a consumer added before any init wait for the init, then the first keyframe', () => {
    const hub: Hub = new StreamHub();
    const c = new FakeConsumer<InitSegment, MediaFragment>();
    hub.addConsumer(c);
    expect(c.received).toHaveLength(0);
    hub.setInit(small.init);
    expect(c.kinds()).toBe('I');
    expect(() => new StreamHub().pushFragment(frag(0))).toThrow(/before setInit/);
    for (let i = 5; i < 12; i++) hub.pushFragment(frag(i)); // joins mid-GOP of the source
    expect(c.kinds()).toBe('IKf');
    expect(seqs(c)).toEqual([11, 12]);
  });

  it('sends a joiner nothing but the init when the GOP outgrew the cache, then starts at the next keyframe', () => {
    const bound = frag(0).size + frag(1).size + frag(2).size;
    const { hub, push } = makeHub({ gopCacheBytes: bound });
    push(0, 5); // GOP of 5 fragments > bound: cache dropped
    expect(hub.stats().gopCache).toEqual({ bytes: 0, fragments: 0, valid: false });
    const c = new FakeConsumer<InitSegment, MediaFragment>();
    hub.addConsumer(c);
    expect(c.kinds()).toBe('I');
    push(5, 12);
    expect(c.kinds()).toBe('IKf');
    expect(hub.stats().gopCache.valid).toBe(true);
  });
});

describe('StreamHub memory', () => {
  it('never holds more than its GOP cache bound, whatever the consumers do', () => {
    for (const bound of [1, frag(0).size, 20_000, 50_000, 10 * 1024 * 1024]) {
      const { hub, push } = makeHub({ gopCacheBytes: bound });
      const stuck = new FakeConsumer<InitSegment, MediaFragment>('stuck');
      stuck.accumulate = true;
      hub.addConsumer(stuck);
      hub.addConsumer(new FakeConsumer('fast'));
      let maxCache = 0;
      for (let i = 0; i < 30; i++) {
        push(i, i + 1);
        const { gopCache } = hub.stats();
        maxCache = Math.max(maxCache, gopCache.bytes);
        // The cache, when valid, is exactly the current GOP so far.
        if (gopCache.valid) {
          const start = i - (i % 10);
          expect(gopCache.fragments).toBe(i - start + 1);
        }
      }
      expect(maxCache).toBeLessThanOrEqual(bound);
    }
  });
});

describe('StreamHub slow consumers', () => {
  it('skips a slow consumer to the next keyframe once drained, while a fast one gets every fragment', async () => {
    const { hub, push } = makeHub({ highWaterBytes: 100_000, lowWaterBytes: 10_000, highWaterSeconds: 1000, lowWaterSeconds: 1000 });
    const fast = new FakeConsumer<InitSegment, MediaFragment>('fast');
    const slow = new FakeConsumer<InitSegment, MediaFragment>('slow');
    hub.addConsumer(fast);
    hub.addConsumer(slow);
    push(0, 3);
    slow.buffered = 150_000; // its socket backs up
    push(3, 8); // 3..7 skipped
    slow.buffered = 50_000; // draining, but above the low mark
    push(8, 11); // 8, 9 skipped; 10 is a keyframe, but it has not drained enough: skipped too
    slow.buffered = 5_000; // drained below the low mark mid-GOP
    push(11, 20); // still waits: 11..19 skipped
    push(20, 30); // resumes at the keyframe at 20
    expect(seqs(fast)).toEqual(range(0, 30));
    expect(seqs(slow)).toEqual([...range(0, 3), ...range(20, 30)]);
    expect(slow.kinds()).toBe('IKffKfffffffff');
    expect(hub.consumerStats(slow)).toMatchObject({ state: 'live', sentFragments: 13, skippedFragments: 17, skips: 1 });
    expect(hub.consumerStats(fast)).toMatchObject({ sentFragments: 30, skippedFragments: 0, skips: 0 });
    expect(hub.stats()).toMatchObject({ skippedFragments: 17, drops: 0, fragmentsIn: 30, keyframes: 3 });

    // What a skipped consumer got still decodes: the gap is at a keyframe.
    const file = await writeParts(join(dir, 'slow-consumer.mp4'), slow.bytes);
    expect((await probe(file)).frames).toBe(13);
  });

  it('measures the high mark in seconds of video too', () => {
    const { hub, push } = makeHub({ highWaterBytes: 100 * 1024 * 1024, hardLimitBytes: 200 * 1024 * 1024, highWaterSeconds: 2, lowWaterSeconds: 0.5 });
    const c = new FakeConsumer<InitSegment, MediaFragment>();
    hub.addConsumer(c);
    push(0, 12);
    const rate = hub.stats().byteRate;
    expect(rate).toBeGreaterThan(0);
    if (rate === undefined) return;
    c.buffered = Math.floor(rate * 1.9); // under 2 s of video: still live
    push(12, 13);
    expect(hub.consumerStats(c)?.state).toBe('live');
    c.buffered = Math.ceil(rate * 2.1); // over 2 s: skipped, though far below the byte mark
    push(13, 14);
    expect(hub.consumerStats(c)).toMatchObject({ state: 'behind', skips: 1 });
    c.buffered = Math.ceil(rate * 0.6); // not below 0.5 s: the keyframe at 20 passes it by
    push(14, 21);
    expect(hub.consumerStats(c)?.state).toBe('behind');
    c.buffered = Math.floor(rate * 0.4);
    push(21, 30);
    expect(hub.consumerStats(c)?.state).toBe('behind'); // no keyframe after 20 in the clip
    expect(seqs(c)).toEqual(range(0, 13));
  });

  it('drops a consumer over the hard limit at once and tells who was dropped', () => {
    const { hub, push } = makeHub({ highWaterBytes: 100_000, lowWaterBytes: 10_000, hardLimitBytes: 1_000_000 });
    const fast = new FakeConsumer<InitSegment, MediaFragment>('fast');
    const dead = new FakeConsumer<InitSegment, MediaFragment>('dead');
    const events: string[] = [];
    hub.on('drop', (c, reason) => events.push(`drop ${(c as Consumer).name}: ${reason}`));
    hub.on('count', (n) => events.push(`count ${n}`));
    hub.addConsumer(fast);
    hub.addConsumer(dead);
    push(0, 4);
    dead.buffered = 1_000_001;
    push(4, 30);
    expect(dead.dropped).toMatch(/hard limit/);
    expect(seqs(dead)).toEqual(range(0, 4));
    expect(seqs(fast)).toEqual(range(0, 30));
    expect(hub.consumerCount).toBe(1);
    expect(hub.stats().drops).toBe(1);
    expect(events).toEqual(['count 1', 'count 2', expect.stringMatching(/^drop dead: slow consumer/), 'count 1']);
    expect(hub.removeConsumer(dead)).toBe(false); // the wiring's close handler after drop(): harmless
  });

  it('drops a consumer stuck above the low mark for longer than maxStallMs', () => {
    const { hub, push, clock } = makeHub({ highWaterBytes: 100_000, lowWaterBytes: 10_000, maxStallMs: 1_000 });
    const fast = new FakeConsumer<InitSegment, MediaFragment>('fast');
    const stuck = new FakeConsumer<InitSegment, MediaFragment>('stuck');
    hub.addConsumer(fast);
    hub.addConsumer(stuck);
    push(0, 2);
    stuck.buffered = 200_000; // behind from the fragment at t=300
    push(2, 12);
    expect(stuck.dropped).toBeUndefined(); // 900 ms behind
    expect(hub.consumerStats(stuck)?.state).toBe('behind');
    push(12, 13); // 1000 ms: not yet longer than the bound
    expect(stuck.dropped).toBeUndefined();
    push(13, 14);
    expect(stuck.dropped).toMatch(/after 1000 ms/);
    expect(clock.now).toBe(1400);
    push(14, 30);
    expect(seqs(fast)).toEqual(range(0, 30));
  });

  it('forgives a consumer that drains in time but finds no keyframe yet', () => {
    const { hub, push } = makeHub({ highWaterBytes: 100_000, lowWaterBytes: 10_000, maxStallMs: 500 });
    const c = new FakeConsumer<InitSegment, MediaFragment>();
    hub.addConsumer(c);
    push(0, 1);
    c.buffered = 200_000;
    push(1, 3);
    c.buffered = 0; // drained: waiting only for the source's next keyframe, 800 ms away
    push(3, 20);
    expect(c.dropped).toBeUndefined();
    expect(seqs(c)).toEqual([1, ...range(10, 20)]);
  });

  it('keeps serving the others when a consumer throws or leaves inside send', () => {
    const { hub, push } = makeHub();
    const thrower = new FakeConsumer<InitSegment, MediaFragment>('thrower');
    const leaver = new FakeConsumer<InitSegment, MediaFragment>('leaver');
    const fast = new FakeConsumer<InitSegment, MediaFragment>('fast');
    hub.addConsumer(thrower);
    hub.addConsumer(leaver);
    hub.addConsumer(fast);
    thrower.onSend = (u) => {
      if (u.kind === 'fragment' && u.fragment.sequenceNumber === 3) throw new Error('socket closed');
    };
    leaver.onSend = (u) => {
      if (u.kind === 'fragment' && u.fragment.sequenceNumber === 5) {
        hub.removeConsumer(leaver);
        hub.removeConsumer(fast); // a callback may remove another consumer too
        hub.addConsumer(fast);
      }
    };
    push(0, 30);
    expect(thrower.dropped).toMatch(/send failed: socket closed/);
    expect(seqs(leaver)).toEqual(range(0, 5));
    // fast re-joined at fragment 5 (mid-GOP) and got the GOP again from the cache: gapless, in order
    expect(seqs(fast)).toEqual([...range(0, 4), ...range(0, 30)]);
    expect(hub.consumerCount).toBe(1);
  });

  it('emits empty when the last consumer leaves, by removal or drop', () => {
    const { hub, push } = makeHub({ hardLimitBytes: 2 * 1024 * 1024 });
    let empties = 0;
    hub.on('empty', () => empties++);
    const a = new FakeConsumer<InitSegment, MediaFragment>('a');
    const b = new FakeConsumer<InitSegment, MediaFragment>('b');
    hub.addConsumer(a);
    hub.addConsumer(b);
    hub.addConsumer(b); // adding twice is a no-op
    expect(hub.consumerCount).toBe(2);
    hub.removeConsumer(a);
    expect(empties).toBe(0);
    b.buffered = 3 * 1024 * 1024;
    push(0, 1);
    expect(b.dropped).toBeDefined();
    expect(empties).toBe(1);
    hub.addConsumer(a);
    hub.dropAll('source gone');
    expect(a.dropped).toBe('source gone');
    expect(empties).toBe(2);
  });
});

describe('StreamHub definition change', () => {
  it('sends the new init next, then waits for a keyframe of the new stream', () => {
    const { hub, push } = makeHub({ highWaterBytes: 100_000, lowWaterBytes: 10_000 });
    const live = new FakeConsumer<InitSegment, MediaFragment>('live');
    const behind = new FakeConsumer<InitSegment, MediaFragment>('behind');
    hub.addConsumer(live);
    hub.addConsumer(behind);
    push(0, 5);
    behind.buffered = 200_000;
    push(5, 7);
    behind.buffered = 0;

    hub.setInit(large.init);
    expect(live.received.at(-1)).toEqual({ kind: 'init', init: large.init });
    expect(behind.received.at(-1)?.kind).toBe('fragment'); // gets the init when it resumes
    expect(hub.stats().gopCache.valid).toBe(false);

    push(3, 20, large); // the new encoder's stream joined mid-GOP: 3..9 are not startable
    const after = (c: Consumer) => c.kinds().slice(c.kinds().lastIndexOf('I'));
    expect(after(live)).toBe('IKfffffffff');
    // fragments 0..4, then skipped (5, 6 and the new stream up to its keyframe), then init + 10..19
    expect(behind.kinds()).toBe('IKffff' + 'IKfffffffff');
    for (const c of [live, behind]) {
      const tail = c.received.slice(c.received.findLastIndex((u) => u.kind === 'init'));
      expect(tail[0]).toEqual({ kind: 'init', init: large.init });
      expect(tail.slice(1).every((u) => u.kind === 'fragment' && large.fragments.includes(u.fragment))).toBe(true);
    }

    // A joiner after the change gets only the new definition.
    const joiner = new FakeConsumer<InitSegment, MediaFragment>('joiner');
    hub.addConsumer(joiner);
    expect(joiner.received[0]).toEqual({ kind: 'init', init: large.init });
    expect(joiner.fragments().every((f) => large.fragments.includes(f))).toBe(true);
    expect(joiner.kinds()).toBe('IKfffffffff');
  });

  it('after reset, consumers wait for the next init and its first keyframe', () => {
    const { hub, push } = makeHub();
    const c = new FakeConsumer<InitSegment, MediaFragment>();
    hub.addConsumer(c);
    push(0, 12);
    hub.reset();
    expect(hub.init).toBeUndefined();
    const joiner = new FakeConsumer<InitSegment, MediaFragment>();
    hub.addConsumer(joiner);
    expect(joiner.received).toHaveLength(0); // nothing stale
    hub.setInit(small.init);
    push(0, 11);
    expect(c.kinds()).toBe('IKfffffffffKf' + 'IKfffffffffK');
    expect(joiner.kinds()).toBe('IKfffffffffK');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Source, StreamRegistry, type Timers } from '../../src/core/media/stream-registry.ts';

/** A source that records its life; `stop()` may only be called once. */
class FakeSource implements Source {
  stops = 0;
  constructor(readonly name: string) {}
  stop(): void {
    this.stops++;
    if (this.stops > 1) throw new Error(`${this.name} stopped twice`);
  }
}

function starter() {
  const started: FakeSource[] = [];
  const start = (name: string) => () => {
    const s = new FakeSource(name);
    started.push(s);
    return s;
  };
  return { started, start };
}

describe('StreamRegistry (vitest fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts one source for N acquires of a key, one per distinct key', () => {
    const reg = new StreamRegistry<string, FakeSource>();
    const { started, start } = starter();
    const a = [1, 2, 3].map(() => reg.acquire('cam1#6', start('cam1#6')));
    const b = reg.acquire('cam1#7', start('cam1#7'));
    expect(started).toHaveLength(2);
    expect(new Set(a).size).toBe(1);
    expect(a[0]).not.toBe(b);
    expect(reg.get('cam1#6')).toBe(a[0]);
    expect(reg.entries()).toEqual([
      { key: 'cam1#6', source: a[0], holders: 3, lingering: false },
      { key: 'cam1#7', source: b, holders: 1, lingering: false },
    ]);
  });

  it('stops a source the linger after its last holder releases, not before', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 10_000 });
    const { started, start } = starter();
    reg.acquire('k', start('k'));
    reg.acquire('k', start('k'));
    reg.release('k');
    vi.advanceTimersByTime(60_000);
    expect(started[0]?.stops).toBe(0); // one holder left
    reg.release('k');
    expect(reg.entries()).toEqual([{ key: 'k', source: started[0], holders: 0, lingering: true }]);
    vi.advanceTimersByTime(9_999);
    expect(started[0]?.stops).toBe(0);
    vi.advanceTimersByTime(1);
    expect(started[0]?.stops).toBe(1);
    expect(reg.entries()).toEqual([]);
    expect(reg.release('k')).toBe(false); // over-release: nothing happens
    // The next acquire starts a new source.
    reg.acquire('k', start('k'));
    expect(started).toHaveLength(2);
  });

  it('defaults to a 10 s linger', () => {
    const reg = new StreamRegistry<string, FakeSource>();
    const { started, start } = starter();
    reg.acquire('k', start('k'));
    reg.release('k');
    vi.advanceTimersByTime(9_999);
    expect(started[0]?.stops).toBe(0);
    vi.advanceTimersByTime(1);
    expect(started[0]?.stops).toBe(1);
  });

  it('cancels the stop when the key is acquired again within the linger', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 10_000 });
    const { started, start } = starter();
    const first = reg.acquire('k', start('k'));
    reg.release('k');
    vi.advanceTimersByTime(8_000);
    const again = reg.acquire('k', start('k'));
    expect(again).toBe(first);
    expect(started).toHaveLength(1);
    vi.advanceTimersByTime(60_000);
    expect(first.stops).toBe(0);
    // Released again: a full linger from this release.
    reg.release('k');
    vi.advanceTimersByTime(9_999);
    expect(first.stops).toBe(0);
    vi.advanceTimersByTime(1);
    expect(first.stops).toBe(1);
  });

  it('stopAll stops held and lingering sources once, and leaves no timer behind', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 10_000 });
    const { started, start } = starter();
    reg.acquire('held', start('held'));
    reg.acquire('lingering', start('lingering'));
    reg.release('lingering');
    reg.stopAll();
    expect(started.map((s) => s.stops)).toEqual([1, 1]);
    expect(reg.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000); // a stale linger timer would stop 'lingering' twice (and throw)
    expect(reg.release('held')).toBe(false);
  });

  it('stopAll stops every source even when one stop throws, then reports it', () => {
    const reg = new StreamRegistry<string, Source>();
    const stopped: string[] = [];
    reg.acquire('a', () => ({ stop: () => { throw new Error('agent gone'); } }));
    reg.acquire('b', () => ({ stop: () => void stopped.push('b') }));
    expect(() => reg.stopAll()).toThrow('agent gone');
    expect(stopped).toEqual(['b']);
  });

  it('shares object keys through an identity function', () => {
    type Key = { cameraId: string; templateId: number };
    const reg = new StreamRegistry<Key, FakeSource>({ identity: (k) => `${k.cameraId}#${k.templateId}` });
    const { started, start } = starter();
    reg.acquire({ cameraId: 'S1-C1', templateId: 6 }, start('x'));
    reg.acquire({ cameraId: 'S1-C1', templateId: 6 }, start('x'));
    reg.acquire({ cameraId: 'S1-C1', templateId: 7 }, start('y'));
    expect(started).toHaveLength(2);
    expect(reg.entries().map((e) => e.holders)).toEqual([2, 1]);
  });

  it('registers nothing when start throws', () => {
    const reg = new StreamRegistry<string, FakeSource>();
    expect(() => reg.acquire('k', () => { throw new Error('ship offline'); })).toThrow('ship offline');
    expect(reg.size).toBe(0);
    const { started, start } = starter();
    reg.acquire('k', start('k'));
    expect(reg.entries()[0]?.holders).toBe(1);
    expect(started).toHaveLength(1);
  });

  it('a lease released without linger stops its source at once when it was the last holder, not while another holds it', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 10_000 });
    const { start } = starter();
    const page = reg.lease('k', start('k'));
    const next = reg.lease('k', start('k'));
    page.release({ linger: false });
    expect(page.source.stops).toBe(0);
    next.release({ linger: false });
    expect(next.source.stops).toBe(1);
    expect(reg.entries()).toEqual([]);
  });

  it('leases release once and never touch a source that replaced theirs', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 1_000 });
    const { started, start } = starter();
    const l1 = reg.lease('k', start('k'));
    const l2 = reg.lease('k', start('k'));
    l1.release();
    l1.release(); // idempotent: l2 still holds it
    vi.advanceTimersByTime(5_000);
    expect(l1.source.stops).toBe(0);

    // The ship ended the stream by itself: forget it without stopping; the next viewer restarts.
    expect(reg.evict('k')).toBe(l1.source);
    expect(l1.source.stops).toBe(0);
    const l3 = reg.lease('k', start('k'));
    expect(started).toHaveLength(2);
    l2.release(); // the old holder leaving must not release the new source
    expect(reg.entries()).toEqual([{ key: 'k', source: l3.source, holders: 1, lingering: false }]);
    l3.release();
    vi.advanceTimersByTime(1_000);
    expect(l3.source.stops).toBe(1);
    expect(reg.evict('k')).toBeUndefined();
  });

  it('evict with stop stops at once and cancels a pending linger', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 1_000 });
    const { started, start } = starter();
    reg.acquire('k', start('k'));
    reg.release('k');
    reg.evict('k', { stop: true });
    expect(started[0]?.stops).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(started[0]?.stops).toBe(1);
  });

  it('stops at once with lingerMs 0', () => {
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 0 });
    const { started, start } = starter();
    reg.acquire('k', start('k'));
    reg.release('k');
    expect(started[0]?.stops).toBe(1);
    expect(reg.size).toBe(0);
  });

  it('hands a stop error raised in the linger timer to onStopError', () => {
    const errors: Array<[unknown, string]> = [];
    const reg = new StreamRegistry<string, Source>({ lingerMs: 100, onStopError: (e, k) => errors.push([e, k]) });
    reg.acquire('k', () => ({ stop: () => { throw new Error('link down'); } }));
    reg.release('k');
    vi.advanceTimersByTime(100);
    expect(errors).toEqual([[new Error('link down'), 'k']]);
    expect(reg.size).toBe(0);
  });
});

describe('StreamRegistry (injected timers)', () => {
  /** Timers the test fires by hand. */
  function manualTimers() {
    let next = 1;
    const pending = new Map<number, { fn: () => void; ms: number }>();
    const timers: Timers = {
      setTimeout: (fn, ms) => {
        const id = next++;
        pending.set(id, { fn, ms });
        return id;
      },
      clearTimeout: (id) => void pending.delete(id as number),
    };
    const fireAll = () => {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.fn();
    };
    return { timers, pending, fireAll };
  }

  it('uses the injected timers with the configured linger', () => {
    const { timers, pending, fireAll } = manualTimers();
    const reg = new StreamRegistry<string, FakeSource>({ lingerMs: 2_500, timers });
    const { started, start } = starter();
    reg.acquire('k', start('k'));
    reg.release('k');
    expect([...pending.values()].map((t) => t.ms)).toEqual([2_500]);
    reg.acquire('k', start('k')); // cancels
    expect(pending.size).toBe(0);
    reg.release('k');
    fireAll();
    expect(started[0]?.stops).toBe(1);
    expect(started).toHaveLength(1);
  });
});

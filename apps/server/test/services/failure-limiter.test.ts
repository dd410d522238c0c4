import { describe, expect, it } from 'vitest';
import { FailureLimiter } from '../../src/services/failure-limiter.ts';

/** A limiter on a clock the test moves by hand. */
function limiter(maxFailures = 3, windowMs = 1_000, lockMs = 5_000) {
  const clock = { now: 0 };
  const l = new FailureLimiter({ maxFailures, windowMs, lockMs }, () => clock.now);
  return { l, clock };
}

describe('FailureLimiter', () => {
  it('locks a key once maxFailures pile up within the window, not before', () => {
    const { l, clock } = limiter(3);
    l.fail('a');
    clock.now = 100;
    l.fail('a');
    expect(l.isLocked('a')).toBe(false);
    clock.now = 200;
    l.fail('a');
    expect(l.isLocked('a')).toBe(true);
  });

  it('slides the window: failures older than windowMs no longer count', () => {
    const { l, clock } = limiter(3, 1_000);
    l.fail('a'); // t=0
    clock.now = 500;
    l.fail('a'); // t=500
    clock.now = 1_000; // the failure at 0 is now exactly windowMs old: out of the window
    l.fail('a');
    expect(l.isLocked('a')).toBe(false);
    clock.now = 1_499; // 500 and 1000 are still inside
    l.fail('a');
    expect(l.isLocked('a')).toBe(true);
  });

  it('never locks when failures are spaced wider than the window', () => {
    const { l, clock } = limiter(3, 1_000);
    for (let i = 0; i < 20; i++) {
      clock.now = i * 600; // at most two failures in any 1000 ms
      l.fail('a');
      expect(l.isLocked('a'), `after failure ${i}`).toBe(false);
    }
  });

  it('expires the lock after lockMs, then starts counting afresh', () => {
    const { l, clock } = limiter(3, 1_000, 5_000);
    clock.now = 10_000;
    l.fail('a');
    l.fail('a');
    l.fail('a'); // locked until 15_000
    clock.now = 14_999;
    expect(l.isLocked('a')).toBe(true);
    clock.now = 15_000;
    expect(l.isLocked('a')).toBe(false);
    // The failures that caused the lock do not carry over: one more failure does not lock again.
    l.fail('a');
    expect(l.isLocked('a')).toBe(false);
    l.fail('a');
    l.fail('a');
    expect(l.isLocked('a')).toBe(true);
    clock.now = 20_000;
    expect(l.isLocked('a')).toBe(false);
  });

  it('keeps keys apart', () => {
    const { l } = limiter(2);
    l.fail('a');
    l.fail('a');
    l.fail('b');
    expect(l.isLocked('a')).toBe(true);
    expect(l.isLocked('b')).toBe(false);
    expect(l.isLocked('never-seen')).toBe(false);
  });

  it('clear forgets the failures of a key', () => {
    const { l } = limiter(3);
    l.fail('a');
    l.fail('a');
    l.clear('a');
    l.fail('a');
    l.fail('a');
    expect(l.isLocked('a')).toBe(false);
    l.fail('a');
    expect(l.isLocked('a')).toBe(true);
  });

  it('locks with maxFailures 1 at the first failure', () => {
    const { l } = limiter(1);
    expect(l.isLocked('a')).toBe(false);
    l.fail('a');
    expect(l.isLocked('a')).toBe(true);
  });

  it('pruning stale entries (beyond 10 000 keys) keeps locks and live failures', () => {
    const { l, clock } = limiter(2, 1_000, 60_000);
    l.fail('victim');
    l.fail('victim'); // locked until 60_000
    for (let i = 0; i < 10_000; i++) l.fail(`k${i}`); // stale once the window has passed
    clock.now = 1_500;
    l.fail('counting'); // one live failure
    clock.now = 2_000;
    l.fail('trigger'); // more than 10 000 keys: prune runs and drops the stale ones
    expect(l.isLocked('victim')).toBe(true);
    l.fail('counting'); // the live failure survived the prune: the second one locks
    expect(l.isLocked('counting')).toBe(true);
    // A pruned key starts from nothing.
    l.fail('k1');
    expect(l.isLocked('k1')).toBe(false);
    clock.now = 60_001;
    expect(l.isLocked('victim')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ADMISSION_DEFAULTS, AdmissionGate } from '../../src/core/ship-link/admission.ts';

describe('admission of new ship links', () => {
  it('takes a burst at once, then the rate; the refused are told times one slot apart', () => {
    const gate = new AdmissionGate({ perSecond: 10, burst: 3 }, 0);
    expect([0, 0, 0].map(() => gate.admit(0).admitted)).toEqual([true, true, true]);
    // Past the burst: each refused ship is told the next free moment after the one told before it.
    const told = [0, 0, 0, 0].map(() => gate.admit(0));
    expect(told).toEqual([100, 200, 300, 400].map((retryAfterMs) => ({ admitted: false, retryAfterMs })));
    // A token comes back every 100 ms at 10 a second.
    expect(gate.admit(100).admitted).toBe(true);
    expect(gate.admit(100).admitted).toBe(false);
    expect(gate.counts).toEqual({ admitted: 4, refused: 5 });
  });

  it('never tells a ship to wait longer than the most it may', () => {
    const gate = new AdmissionGate({ perSecond: 1, burst: 1, maxRetryAfterMs: 5_000 }, 0);
    gate.admit(0);
    const waits = Array.from({ length: 20 }, () => gate.admit(0)).map((a) => (a.admitted ? 0 : a.retryAfterMs));
    expect(Math.max(...waits)).toBe(5_000);
  });

  it('by default takes any few hundred ships at once', () => {
    const gate = new AdmissionGate({}, 0);
    const taken = Array.from({ length: ADMISSION_DEFAULTS.burst }, () => gate.admit(0)).filter((a) => a.admitted);
    expect(taken).toHaveLength(200);
  });
});

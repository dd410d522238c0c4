import { describe, expect, it } from 'vitest';
import { isEventNotice } from './event-notice.ts';

describe('event notices', () => {
  it('takes a new event, an event that went on, an acknowledgement and a deletion, and nothing else', () => {
    expect(isEventNotice({ type: 'event', event: { id: 'e1' }, notify: true })).toBe(true);
    expect(isEventNotice({ type: 'updated', event: { id: 'e1' } })).toBe(true);
    expect(isEventNotice({ type: 'acknowledged', id: 'e1', acknowledgedBy: 'demo', acknowledgedAt: 1 })).toBe(true);
    expect(isEventNotice({ type: 'deleted', id: 'e1' })).toBe(true);
    expect(isEventNotice({ type: 'updated', id: 'e1' })).toBe(false);
    expect(isEventNotice({ type: 'moved', id: 'e1' })).toBe(false);
    expect(isEventNotice(null)).toBe(false);
  });
});

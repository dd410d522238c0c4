import { describe, expect, it, vi } from 'vitest';
import { AppendQueue } from '../src/append-queue.ts';
import { FakeSourceBuffer } from './fakes.ts';

function setup(evict: [number, number] | undefined = undefined) {
  const sb = new FakeSourceBuffer();
  const hooks = { onQuotaExceeded: vi.fn(() => evict), onError: vi.fn(), onUpdateEnd: vi.fn() };
  const queue = new AppendQueue<FakeSourceBuffer>(hooks);
  return { sb, hooks, queue };
}

const bytes = (...b: number[]) => new Uint8Array(b);

describe('AppendQueue', () => {
  it('holds ops until a SourceBuffer is attached', () => {
    const { sb, queue } = setup();
    queue.append(bytes(1));
    expect(queue.pendingBytes).toBe(1);
    queue.attach(sb);
    expect(sb.calls).toEqual([{ op: 'append', bytes: [1] }]);
    expect(queue.pendingBytes).toBe(0);
  });

  it('never appends while updating, and coalesces what queued meanwhile into one append', () => {
    const { sb, queue, hooks } = setup();
    queue.attach(sb);
    queue.append(bytes(1));
    queue.append(bytes(2, 3));
    queue.append(bytes(4));
    expect(sb.calls).toHaveLength(1);
    sb.complete();
    expect(hooks.onUpdateEnd).toHaveBeenCalledWith(sb);
    expect(sb.calls).toEqual([
      { op: 'append', bytes: [1] },
      { op: 'append', bytes: [2, 3, 4] },
    ]);
  });

  it('keeps order across removes and run ops, which act as barriers', () => {
    const { sb, queue } = setup();
    queue.attach(sb);
    queue.append(bytes(1));
    queue.append(bytes(2));
    queue.remove(0, 5);
    queue.run((b) => b.changeType('video/mp4; codecs="avc1.42c00d"'));
    queue.append(bytes(3));
    queue.append(bytes(4));
    while (sb.updating) sb.complete();
    expect(sb.calls).toEqual([
      { op: 'append', bytes: [1] },
      { op: 'append', bytes: [2] },
      { op: 'remove', start: 0, end: 5 },
      { op: 'changeType', mime: 'video/mp4; codecs="avc1.42c00d"' },
      { op: 'append', bytes: [3, 4] },
    ]);
  });

  it('on QuotaExceededError removes what the owner names, then retries the same bytes', () => {
    const { sb, queue, hooks } = setup([0, 8]);
    sb.quotaFailures = 1;
    queue.attach(sb);
    queue.append(bytes(9, 9));
    expect(hooks.onQuotaExceeded).toHaveBeenCalledOnce();
    expect(sb.calls).toEqual([{ op: 'remove', start: 0, end: 8 }]);
    sb.complete();
    expect(sb.calls.at(-1)).toEqual({ op: 'append', bytes: [9, 9] });
    expect(hooks.onError).not.toHaveBeenCalled();
  });

  it('with nothing to evict, waits for the next pump() instead of spinning or dropping data', () => {
    const { sb, queue } = setup(undefined);
    sb.quotaFailures = 1;
    queue.attach(sb);
    queue.append(bytes(5));
    queue.append(bytes(6)); // queued behind the blocked append
    expect(sb.calls).toEqual([]);
    expect(queue.pendingBytes).toBe(2);
    queue.pump();
    expect(sb.calls).toEqual([{ op: 'append', bytes: [5, 6] }]);
  });

  it('reports other append failures and SourceBuffer errors', () => {
    const { sb, queue, hooks } = setup();
    queue.attach(sb);
    sb.updating = true; // an append outside the queue would make appendBuffer throw
    sb.appendBuffer = () => {
      throw new DOMException('gone', 'InvalidStateError');
    };
    sb.updating = false;
    queue.append(bytes(1));
    expect(hooks.onError).toHaveBeenCalledWith(expect.objectContaining({ name: 'InvalidStateError' }));
    sb.dispatchEvent(new Event('error'));
    expect(hooks.onError).toHaveBeenCalledTimes(2);
  });

  it('detach() forgets the buffer and the queued ops', () => {
    const { sb, queue } = setup();
    queue.attach(sb);
    queue.append(bytes(1));
    queue.append(bytes(2));
    queue.detach();
    sb.complete();
    expect(sb.calls).toHaveLength(1);
    expect(queue.pendingBytes).toBe(0);
  });
});

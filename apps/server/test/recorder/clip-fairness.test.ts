import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { ClipLimitError, ClipService } from '../../src/recorder/clip.ts';

/** Clip jobs that end at once (nothing recorded in their range): what matters here is their order. */
function service(perUserLimit: number) {
  const order: string[] = [];
  const clips = new ClipService({
    root: '/nonexistent',
    keepMs: 60_000,
    log: pino({ level: 'silent' }),
    perUserLimit,
    segments: async (recordingId) => {
      order.push(recordingId);
      await new Promise((r) => setTimeout(r, 5));
      return [];
    },
  });
  const ask = (user: string, n: number) => clips.create({ id: `${user}-${n}`, orgId: 'o', cameraId: 'c' }, 0, 1_000, user);
  return { clips, order, ask };
}

describe('clip jobs between users', () => {
  it("one user's flood of clips delays another user's by at most one clip", async () => {
    const { clips, order, ask } = service(500);
    for (let i = 0; i < 200; i++) ask('flood', i);
    ask('other', 0);
    ask('third', 0);
    await clips.idle();
    expect(order).toHaveLength(202);
    // The flood's first clip was already running; the others' clips come right after it.
    expect(order.indexOf('other-0')).toBeLessThanOrEqual(2);
    expect(order.indexOf('third-0')).toBeLessThanOrEqual(3);
    // Each user's own clips keep their order.
    const flood = order.filter((id) => id.startsWith('flood-'));
    expect(flood).toEqual(Array.from({ length: 200 }, (_, i) => `flood-${i}`));
  });

  it('refuses a user more clips waiting or running than the limit, and takes more once one is done', async () => {
    const { clips, ask } = service(3);
    for (let i = 0; i < 3; i++) ask('ann', i);
    expect(() => ask('ann', 3)).toThrow(ClipLimitError);
    expect(() => ask('ann', 3)).toThrow(/3 clips waiting/);
    // Another user is not held by ann's limit.
    expect(['queued', 'running']).toContain(ask('bob', 0).state);
    await clips.idle();
    expect(['queued', 'running']).toContain(ask('ann', 4).state);
    await clips.idle();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND, type MediaServerMessage, type ShoreMessage } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { type Clip, MediaClient, loadClip } from '../playback/helpers.ts';
import { RawAgent } from '../agent-link/raw-agent.ts';

const SHIP = 'S1001';
/** S1001's templates: 5 is 320×180 (the lowest, 150 kbps), 6 640×360 (the default, 400 kbps). */
const LOWEST = 5;
const STANDARD = 6;
const CAMERAS = ['S1001-C01-1', 'S1001-C02-1', 'S1001-C03-1', 'S1001-C04-1'] as const;

type LiveStart = Extract<ShoreMessage, { type: 'live.start' }>;

/**
 * A ship's link judged congested while it carried a many-cell grid: once the grid is made smaller
 * (its cells close, one stays or a new one starts), the ship carries less than when it congested,
 * so its streams step back up at once instead of after the restore hold time (here a minute, far
 * beyond these tests' waits), and the remaining cell plays what it asked for.
 */
describe('a degraded ship whose grid is made smaller steps back up', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let clip: Clip;
  let agent: RawAgent;
  const viewers: MediaClient[] = [];

  const starts = () => agent.received.filter((m): m is LiveStart => m.type === 'live.start');
  const viewer = async () => {
    const c = await MediaClient.open(port, token);
    viewers.push(c);
    return c;
  };
  const notices = (c: MediaClient) => c.events.filter((e): e is Extract<MediaServerMessage, { type: 'notice' }> => e.type === 'notice');
  const congest = () => {
    agent.send({ type: 'link.queue', bufferedBytes: 500_000, queuedMs: 5_000 });
    agent.send({ type: 'link.queue', bufferedBytes: 500_000, queuedMs: 5_000 });
  };
  /** A 4-cell grid of the ship: the first camera at the standard definition, the others at the lowest; then its link congests. */
  const gridUntilDegraded = async () => {
    const cells: MediaClient[] = [];
    for (const [i, cameraId] of CAMERAS.entries()) {
      const c = await viewer();
      const templateId = i === 0 ? STANDARD : LOWEST;
      c.send({ type: 'play', mode: 'live', cameraId, templateId });
      await c.until((v) => v.event('codec', (e) => e.templateId === templateId) !== undefined, 10_000, `${cameraId} playing`);
      cells.push(c);
    }
    congest();
    await cells[0]!.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined, 10_000, 'the first cell dropped to the lowest');
    return cells;
  };

  beforeAll(async () => {
    clip = await loadClip(6);
    t = await build({
      live: { lingerMs: 3_000, definitionControl: { degradeAboveMs: 1_000, degradeAfterReports: 2, restoreBelowMs: 250, restoreAfterMs: 60_000, maxRestoreAfterMs: 120_000 } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    token = (await logon(t.app, 'demo')).token;
    agent = await RawAgent.connect(port, SHIP, await t.app.agentKeys.issue(SHIP), {
      hello: {},
      capabilities: ['live'],
      onMessage: (msg, a) => {
        if (msg.type !== 'live.start') return;
        a.send({ type: 'live.started', streamId: msg.streamId });
        a.sendFrame(BINARY_KIND.live, msg.streamId, clip.init);
        for (const f of clip.fragments.slice(0, 3)) a.sendFrame(BINARY_KIND.live, msg.streamId, f);
      },
    });
    await agent.until(() => t.app.agents.get(SHIP)?.ready ?? false, 'the agent link ready');
  }, 60_000);
  afterEach(async () => {
    await Promise.all(viewers.splice(0).map((c) => c.close()));
    await expect.poll(() => t.app.live.activeStreams(), { timeout: 10_000 }).toEqual([]);
    agent.received.length = 0;
  });
  afterAll(async () => {
    await agent?.close();
    await t?.close();
  });

  it('the cell that stays steps back up to what it asked for as soon as the others close', async () => {
    const [first, ...others] = await gridUntilDegraded();
    first!.events.length = 0;
    // Three cells close (the grid goes to one cell): 400 kbps asked where 850 congested.
    await Promise.all(others.map((c) => c.close()));
    await first!.until((c) => notices(c).some((n) => n.code === 'definitionRestored'), 10_000, 'the remaining cell restored');
    await first!.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'the remaining cell at the standard definition');
    // One stream of the remaining camera; the closed cells' streams (lingering or stopped) stay at the lowest they asked for.
    const streams = t.app.live.activeStreams();
    expect(streams.filter((s) => s.key.startsWith(`${CAMERAS[0]}@`)).map((s) => [s.definition, s.viewers])).toEqual([[STANDARD, 1]]);
    expect(streams.filter((s) => !s.key.startsWith(`${CAMERAS[0]}@`)).every((s) => s.definition === LOWEST && s.viewers === 0)).toBe(true);
  }, 60_000);

  it('a cell started after the grid closed plays the definition it asks for, without the bad-network notice', async () => {
    const cells = await gridUntilDegraded();
    await Promise.all(cells.map((c) => c.close()));
    // Within the linger: the closed cells' streams still run, at the lowest.
    expect(t.app.live.activeStreams().length).toBeGreaterThan(0);
    const single = await viewer();
    single.send({ type: 'play', mode: 'live', cameraId: CAMERAS[1], templateId: STANDARD });
    await single.until((c) => c.event('codec', () => true) !== undefined, 10_000, 'the new cell playing');
    expect(single.event('codec', () => true)?.templateId).toBe(STANDARD);
    expect(notices(single)).toEqual([]);
    expect(starts().at(-1)).toMatchObject({ cameraId: CAMERAS[1], encode: { width: 640 } });
  }, 60_000);

  it('judged afresh, a link that congests again with the lighter load drops to the lowest again (no step up for the same load)', async () => {
    const cells = await gridUntilDegraded();
    // One cell of four closes: 850 - 150 = 700 kbps asked is lighter, so this is judged afresh too…
    await cells[3]!.close();
    await cells[0]!.until((c) => c.event('codec', (e) => e.templateId === STANDARD) !== undefined, 10_000, 'restored for a lighter load');
    // …and when the link congests again with that load, the streams drop again; a viewer joining then gets the lowest, with the notice.
    cells[0]!.events.length = 0;
    congest();
    await cells[0]!.until((c) => c.event('codec', (e) => e.templateId === LOWEST) !== undefined, 10_000, 'degraded again');
    const again = await viewer();
    again.send({ type: 'play', mode: 'live', cameraId: CAMERAS[0], templateId: STANDARD });
    await again.until((c) => c.event('codec', () => true) !== undefined, 10_000, 'a second viewer of the first cell');
    expect(again.event('codec', () => true)?.templateId).toBe(LOWEST);
    expect(notices(again).map((n) => n.code)).toEqual(['lowestDefinition']);
  }, 60_000);
});

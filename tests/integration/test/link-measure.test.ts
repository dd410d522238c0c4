/**
 * The agent's link measurement as shore gets it: link reports carrying what the agent measured over
 * an emulated link of known delay are taken as they are, and the status shore publishes keeps its
 * fields and meanings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage, LinkReport, ShipStatusMessage } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { LinkShaper, PROFILES, withOverrides } from '@ship-cctv/simulator';
import { type Shore, StatusWatcher, signIn, startShore } from './helpers/shore.ts';

const SHIP = { id: 'S1001', name: '蓝海之星' };

describe('the link the agent measures, on shore', () => {
  let shore: Shore;
  let shaper: LinkShaper;
  let agent: ShipAgent;
  let watcher: StatusWatcher;
  const heard: AgentMessage[] = [];
  const refused: string[] = [];

  beforeAll(async () => {
    shore = await startShore();
    const key = await shore.app.agentKeys.issue(SHIP.id);
    watcher = await StatusWatcher.connect(shore.port, await signIn(shore.app));
    watcher.subscribe(`/shipStatus/${SHIP.name}`);
    shore.app.agents.events.on('message', (shipId, msg) => {
      if (shipId === SHIP.id) heard.push(msg);
    });
    // VSAT's rates with a 200 ms one-way delay, no jitter and no loss: a round trip of 400 ms.
    shaper = new LinkShaper({ target: { port: shore.port }, profile: withOverrides(PROFILES.VSAT, { oneWayDelayMs: 200, jitterMs: 0 }), loss: false });
    await shaper.listen();
    const link: LinkReport = { linkType: 'VSAT', quality: 77, duplex: 'BOTH' };
    agent = new ShipAgent({ shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP.id, key, cameras: [] }, { current: () => link, onChange: () => () => undefined }, { linkMeasure: { pingEveryMs: 300, reportEveryMs: 2_000 } });
    agent.on('refused', (code, message) => refused.push(`${code}: ${message}`));
    agent.start();
  });
  afterAll(async () => {
    await agent?.stop();
    await shaper?.close();
    await watcher?.close();
    await shore?.close();
  });

  it('takes the measured link reports as they are: the round trip of the link, beside its kind', async () => {
    const measured = () => heard.flatMap((m) => (m.type === 'link' && m.measured?.rttMs !== undefined ? [m] : []));
    await expect.poll(() => measured().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const report = measured()[1];
    expect(report).toMatchObject({ linkType: 'VSAT', quality: 77, duplex: 'BOTH' });
    expect(report?.measured?.rttMs).toBeGreaterThanOrEqual(400);
    expect(report?.measured?.rttMs).toBeLessThan(550);
    // Shore acknowledges (link protocol 3): goodput and the loss seen are there too.
    expect(report?.measured?.goodputKbps).toBeGreaterThan(0);
    expect(report?.measured?.stalls).toBeTypeOf('number');
    expect(refused).toEqual([]);
  });

  it('publishes the ship status with the fields it always had', async () => {
    const status = await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'VSAT');
    expect(status).toEqual({ status: 'VSAT', quality: 77, udpConnectionStats: { duplex: 'BOTH' } });
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fmp4Splitter, type Fmp4Unit } from '@ship-cctv/media';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { Balancer, type ShoreCluster, signInOver, startShoreCluster } from './helpers/shore-cluster.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const VIEWERS_PER_INSTANCE = 2;

const units = (chunks: readonly Buffer[]): Fmp4Unit[] => {
  const splitter = new Fmp4Splitter();
  return chunks.flatMap((c) => splitter.push(c));
};
const inits = (c: MediaClient) => units(c.chunks).filter((u) => u.kind === 'init').length;

/**
 * Three shore instances as processes on one PostgreSQL database and the machine's Redis, the
 * ship's agent behind a balancer. Viewers on every instance share one uplink; the owner is killed
 * (SIGKILL: no goodbye, its claim left to expire), the agent reconnects to a survivor, and the
 * viewers on both survivors — the new owner's and the other's, now relayed from the new owner —
 * play again on one uplink.
 */
describe('live video across three shore instances (processes)', () => {
  let cluster: ShoreCluster;
  let balancer: Balancer;
  let agent: ShipAgent;
  let token: string;
  const viewers = new Map<number, MediaClient[]>();

  beforeAll(async () => {
    cluster = await startShoreCluster({ count: 3, redisPrefix: `shipcctv-test-${randomBytes(4).toString('hex')}:` });
    balancer = await new Balancer(cluster.instances.map((i) => i.port)).listen();
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${balancer.port}`, shipId: SHIP, key: cluster.keyOf(SHIP), cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      { current: () => report, onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 500 },
    );
    agent.start();
    token = await signInOver(cluster.instances[0]!.port);
    await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([...viewers.values()].flat().map((c) => c.close()));
    await agent?.stop();
    await balancer?.close();
    await cluster?.close();
  }, 30_000);

  it('viewers on all three instances share one uplink; the owner killed, the agent reconnects to a survivor and viewers on both survivors resume', async () => {
    const ownerPort = balancer.current;
    const owner = cluster.instances.find((i) => i.port === ownerPort)!;
    expect(owner).toBeDefined();
    for (const shore of cluster.instances) {
      const list: MediaClient[] = [];
      for (let n = 0; n < VIEWERS_PER_INSTANCE; n++) {
        const c = await MediaClient.open(shore.port, token);
        c.send({ type: 'play', mode: 'live', cameraId: CAMERA });
        list.push(c);
      }
      viewers.set(shore.port, list);
    }
    for (const [port, list] of viewers) {
      for (const c of list) {
        await c.until((x) => x.chunks.length > 10, 30_000, `frames on :${port}`);
        // Every viewer, on the owner or relayed, starts from an init and a keyframe.
        const got = units(c.chunks);
        expect(got[0]?.kind).toBe('init');
        const first = got.find((u) => u.kind === 'fragment');
        expect(first && 'keyframe' in first && first.keyframe).toBe(true);
      }
    }
    // Six viewers on three instances: one stream at the ship.
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    const linksBefore = balancer.connections.length;
    const heardBefore = new Map([...viewers.values()].flat().map((c) => [c, c.events.length]));

    owner.child.kill('SIGKILL');
    await owner.exited;
    for (const c of viewers.get(owner.port)!) await c.until((x) => x.closed !== undefined, 10_000, 'the dead instance closing its viewers');

    // The agent's link broke with the process; it dials again and the balancer skips the dead one.
    await expect.poll(() => balancer.connections.length > linksBefore && agent.connected, { timeout: 20_000, interval: 100 }).toBe(true);
    expect(balancer.current).not.toBe(owner.port);
    const survivors = cluster.instances.filter((i) => i !== owner);
    for (const shore of survivors) {
      for (const c of viewers.get(shore.port)!) {
        // The stream starts again (a new init), then frames flow.
        await c.until((x) => inits(x) >= 2, 30_000, `a new init on :${shore.port}`);
        const resumed = c.chunks.length;
        await c.until((x) => x.chunks.length > resumed + 10, 30_000, `frames on :${shore.port} after the take-over`);
      }
    }
    // Four viewers on two instances after the take-over: still one stream at the ship.
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    // The survivor that is not the new owner followed the ship to it: its viewers' stream never
    // ended (no "stalled" and its retry), it switched sources like a definition change.
    const relaying = survivors.find((s) => s.port !== balancer.current)!;
    for (const c of viewers.get(relaying.port)!) {
      expect(c.events.slice(heardBefore.get(c)).filter((e) => e.type === 'status' && e.state !== 'playing')).toEqual([]);
    }
  }, 120_000);
});

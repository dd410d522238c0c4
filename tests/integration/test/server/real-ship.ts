/**
 * The real ship agent for the ship-playback tests: one ship with its synthetic camera (its own
 * recorder and playback, real ffmpeg), dialling this server directly or through the link emulator.
 */
import type { LinkReport } from '@ship-cctv/protocol';
import { type AgentOptions, ShipAgent } from '@ship-cctv/agent';
import type { TestApp } from '../../../../apps/server/test/helpers/build.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

export const SHIP = 'S1001';
export const CAMERA = 'S1001-C01-1';

/** Starts the test server on a free loopback port; returns the port. */
export async function listenOnLoopback(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The ship agent of SHIP with its synthetic camera, reporting `report`, dialling `shoreUrl` (not started). */
export async function syntheticShip(t: TestApp, shoreUrl: string, report: LinkReport, options: AgentOptions): Promise<ShipAgent> {
  return new ShipAgent(
    { shoreUrl, shipId: SHIP, key: await t.app.agentKeys.issue(SHIP), cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
    { current: () => report, onChange: () => () => undefined },
    { cameraKinds: [syntheticCameras()], ...options },
  );
}

/** Waits until shore holds SHIP's agent link ready (at most 20 s). */
export async function shipReady(t: TestApp): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!t.app.agents.get(SHIP)?.ready) {
    if (Date.now() > deadline) throw new Error('the agent did not come online');
    await new Promise((r) => setTimeout(r, 50));
  }
}

import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CLOSE_SHORE_RESTART, isShoreRestart } from '@ship-cctv/protocol';
import { build } from '../helpers/build.ts';
import { RawAgent } from './raw-agent.ts';

/**
 * A shore that stops closes its agents' links saying it restarts (1012), which agents take as
 * "redial within seconds" (RedialPlan), not with a code-less close they would back off from.
 */
describe('a shore stopping', () => {
  it("closes every agent's link with 1012, service restart", async () => {
    const t = await build();
    let closedApp = false;
    const agents: RawAgent[] = [];
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      for (const ship of ['S1001', 'S1002']) {
        const agent = await RawAgent.connect(port, ship, await t.app.agentKeys.issue(ship), { hello: {} });
        agents.push(agent);
        await agent.until(() => t.app.agents.get(ship)?.ready === true, 'hello taken');
      }
      await t.close();
      closedApp = true;
      for (const agent of agents) await agent.until(() => agent.closed !== undefined, 'link closed');
      expect(agents.map((a) => a.closed?.code)).toEqual([CLOSE_SHORE_RESTART, CLOSE_SHORE_RESTART]);
      expect(agents.every((a) => isShoreRestart(a.closed?.code ?? 0))).toBe(true);
    } finally {
      for (const agent of agents) await agent.close();
      if (!closedApp) await t.close();
    }
  });
});

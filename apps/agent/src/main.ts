import { dirname, resolve } from 'node:path';
import type { LinkReport } from '@ship-cctv/protocol';
import { type LinkStatusSource, ShipAgent } from './agent.ts';
import { readAgentConfig } from './config.ts';

/**
 * One ship's agent, as installed on a ship:
 *   node --import tsx apps/agent/src/main.ts path/to/agent.json
 * The file names the shore URL, the ship id, its key and its cameras (see README).
 */
const path = process.argv[2] ?? process.env.AGENT_CONFIG;
if (!path) {
  console.error('usage: main.ts <agent-config.json>   (or AGENT_CONFIG=<file>)');
  process.exit(2);
}
const config = readAgentConfig(path);
// The link's kind as configured (nothing on the ship's network tells the terminal's kind); the
// agent measures the link itself and reports round trip, goodput and loss beside it.
const report: LinkReport = config.link ?? { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
const link: LinkStatusSource = { current: () => report, onChange: () => () => undefined };
// The recordings' directory: the file's dataDir (relative to the file), else AGENT_DATA_DIR, else agent-data beside the file.
const dataDir = config.dataDir ? resolve(dirname(path), config.dataDir) : resolve(process.env.AGENT_DATA_DIR ?? resolve(dirname(path), 'agent-data'));
const agent = new ShipAgent(config, link, {
  recorder: {
    dataDir,
    ...(config.retention?.maxAgeDays ? { maxAgeMs: config.retention.maxAgeDays * 24 * 3_600_000 } : {}),
    ...(config.retention?.maxGiB ? { maxBytes: Math.round(config.retention.maxGiB * 1024 ** 3) } : {}),
    ...(config.retention?.minFreeGiB ? { minFreeBytes: Math.round(config.retention.minFreeGiB * 1024 ** 3) } : {}),
  },
});
console.log(`[agent ${config.shipId}] recording to ${dataDir}`);
agent.on('connected', () => console.log(`[agent ${config.shipId}] connected to ${config.shoreUrl}`));
agent.on('disconnected', (reason) => console.log(`[agent ${config.shipId}] disconnected (${reason}); retrying`));
agent.on('rejected', (status) => console.error(`[agent ${config.shipId}] shore refused the connection (HTTP ${status}): check shipId and key`));
agent.on('refused', (code, message) => console.error(`[agent ${config.shipId}] shore refused: ${code}: ${message}`));
agent.on('dropped', (reason) => console.error(`[agent ${config.shipId}] dropped a message from shore: ${reason}`));
agent.on('warning', (message) => console.error(`[agent ${config.shipId}] ${message}`));
agent.start();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void agent.stop().then(() => process.exit(0));
  });
}

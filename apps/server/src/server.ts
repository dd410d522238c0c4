import { buildApp } from './app.ts';
import { readConfig } from './config.ts';
import { writeFleetFile } from './modules/fleet/fleet-file.ts';

/** Bootstrap only: read the environment, build, listen, and shut down cleanly on a signal. */
const config = readConfig();
const app = await buildApp({
  logger: { level: config.logLevel },
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  seedDemo: config.seedDemo,
  webDist: config.webDist,
  ttlHours: config.sessionTtlHours,
  redisUrl: config.redisUrl,
  redisPrefix: config.redisPrefix,
  trustProxy: config.trustProxy,
  metricsToken: config.metricsToken,
  allowedOrigins: config.allowedOrigins,
  jwtSecret: config.jwtSecret,
  instanceName: config.instanceName,
  admission: config.agentAdmission,
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    app.log.error('shutdown took longer than 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
  if (config.fleetFile) {
    const ships = await writeFleetFile(app.database.db, app.agentKeys, config.fleetFile, `ws://127.0.0.1:${config.port}`);
    app.log.info({ ships, file: config.fleetFile }, 'provisioned the simulated fleet');
  }
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}

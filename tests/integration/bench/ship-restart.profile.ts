/**
 * A shore instance restarted under its fleet: one instance (a process, with Redis), N light ships
 * online; the instance is stopped (SIGTERM), left down 20 s, started again. Prints how long it took
 * to exit, when it answered again, when every ship was back, the dials after it answered and the
 * close codes the ships saw (1012: shore said it restarts; 1006: a dial to a shore that was down;
 * 4003: admission's "come back later"). Run from the repository root:
 * node --import tsx tests/integration/bench/ship-restart.profile.ts [--ships=1500]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@ship-cctv/server/db';
import { LightFleet } from '@ship-cctv/simulator';
import { addLightShips } from '../test/helpers/light-fleet.ts';
import { REDIS_URL, type ShoreProcess, freePort, spawnShore, throwAwayDatabase, untilHealthy } from '../test/helpers/shore-cluster.ts';

const SHIPS = Number(process.argv.find((a) => a.startsWith('--ships='))?.split('=')[1] ?? 1500);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'ship-restart-'));
const database = await throwAwayDatabase();
const port = await freePort();
const env = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: `ship-restart-${process.pid}:`, JWT_SECRET: 'bench-jwt-secret-of-at-least-32-characters', LOG_LEVEL: 'error', SEED_DEMO: '1', DATA_DIR: join(dir, 'data') };
let shore: ShoreProcess = spawnShore('shore-r', port, env);
let fleet: LightFleet | undefined;
try {
  await untilHealthy(shore, 180_000);
  const db = await openDatabase({ url: database.url });
  const ships = await addLightShips(db, SHIPS);
  await db.close();
  fleet = new LightFleet({ ships, shoreUrl: `ws://127.0.0.1:${port}`, cameraIds: [] });
  const closes = new Map<string, number>();
  const delays: number[] = [];
  for (const ship of fleet.ships) {
    ship.on('closed', (code, _reason, delay) => {
      closes.set(String(code), (closes.get(String(code)) ?? 0) + 1);
      delays.push(delay);
    });
  }
  fleet.start();
  while (fleet.online < SHIPS) await sleep(200);
  console.log('online', fleet.totals());
  closes.clear();
  const t0 = performance.now();
  shore.child.kill('SIGTERM');
  await shore.exited;
  const exitedAt = performance.now() - t0;
  await sleep(20_000);
  shore = spawnShore('shore-r', port, env);
  await untilHealthy(shore, 180_000);
  const upAt = performance.now() - t0;
  const d0 = fleet.totals().dials;
  while (fleet.online < SHIPS && performance.now() - t0 < 180_000) await sleep(100);
  const allAt = performance.now() - t0;
  console.log(`exited ${(exitedAt / 1000).toFixed(1)} s, up ${(upAt / 1000).toFixed(1)} s, all online ${(allAt / 1000).toFixed(1)} s (${fleet.online}); dials after up ${fleet.totals().dials - d0}; closes ${JSON.stringify(Object.fromEntries(closes))}; longest redial delay ${Math.max(0, ...delays)} ms`);
} finally {
  await fleet?.stop();
  shore.child.kill('SIGTERM');
  await shore.exited;
  await database.drop().catch(() => undefined);
}

/**
 * What a ship's hello costs a shore instance: one instance (a process, with Redis) under a CPU
 * profile, N light ships dialling at once (admission opened wide), time until all are online, and
 * the functions that took the most CPU. Run from the repository root:
 * node --import tsx tests/integration/bench/ship-hello.profile.ts [--ships=1500]; SHORE_NODE_OPTIONS adds V8
 * flags to the shore (e.g. --max-semi-space-size=16).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@ship-cctv/server/db';
import { LightFleet } from '@ship-cctv/simulator';
import { addLightShips } from '../test/helpers/light-fleet.ts';
import { REDIS_URL, freePort, spawnShore, throwAwayDatabase, untilHealthy } from '../test/helpers/shore-cluster.ts';

const SHIPS = Number(process.argv.find((a) => a.startsWith('--ships='))?.split('=')[1] ?? 1500);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuTicks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};

const dir = mkdtempSync(join(tmpdir(), 'ship-hello-'));
const database = await throwAwayDatabase();
const port = await freePort();
const t0 = performance.now();
const shore = spawnShore('shore-h', port, {
  DATABASE_URL: database.url,
  REDIS_URL,
  REDIS_PREFIX: `ship-hello-${process.pid}:`,
  JWT_SECRET: 'bench-jwt-secret-of-at-least-32-characters',
  LOG_LEVEL: 'error',
  SEED_DEMO: '1',
  DATA_DIR: join(dir, 'data'),
  AGENT_ADMIT_BURST: '100000',
  AGENT_ADMIT_PER_SECOND: '100000',
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} ${process.env.SHORE_NODE_OPTIONS ?? ''}`,
});
let fleet: LightFleet | undefined;
try {
  await untilHealthy(shore, 180_000);
  console.log(`instance answered after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const db = await openDatabase({ url: database.url });
  const ships = await addLightShips(db, SHIPS);
  await db.close();
  await sleep(2_000);
  fleet = new LightFleet({ ships, shoreUrl: `ws://127.0.0.1:${port}`, cameraIds: [] });
  const c0 = cpuTicks(shore.child.pid!);
  const t1 = performance.now();
  fleet.start();
  while (fleet.online < SHIPS) await sleep(100);
  const s = (performance.now() - t1) / 1000;
  const cpu = (cpuTicks(shore.child.pid!) - c0) / 100;
  console.log(`${SHIPS} ships online in ${s.toFixed(1)} s: ${(SHIPS / s).toFixed(0)} hellos/s, ${((cpu * 1000) / SHIPS).toFixed(2)} ms of CPU per hello (dials ${fleet.totals().dials})`);
  await fleet.stop();
  fleet = undefined;
} finally {
  await fleet?.stop();
  shore.child.kill('SIGTERM');
  await shore.exited;
  await database.drop().catch(() => undefined);
}
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (file) {
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] };
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const n of prof.nodes) {
    const t = self.get(n.id) ?? 0;
    const where = n.callFrame.url.replace(/^.*node_modules\//, 'nm/').replace(/^file:\/\/.*\/wt\/[^/]+\//, '');
    const k = `${n.callFrame.functionName || '(anon)'} ${where}:${n.callFrame.lineNumber}`;
    byFn.set(k, (byFn.get(k) ?? 0) + t);
    const pkg = where.startsWith('nm/') ? where.split('/').slice(0, where.split('/')[1]?.startsWith('@') ? 3 : 2).join('/') : where || n.callFrame.functionName;
    byFile.set(pkg, (byFile.get(pkg) ?? 0) + t);
  }
  const total = [...byFn.values()].reduce((a, b) => a + b, 0);
  console.log(`profile: ${(total / 1e6).toFixed(1)} s sampled`);
  for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((t / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  console.log('--');
  for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((t / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
}
rmSync(dir, { recursive: true, force: true });

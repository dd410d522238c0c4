/**
 * How long the test helper `build()` (a server on a fresh, migrated, demo-seeded embedded database)
 * takes. Every test file runs in a process of its own, so what a file pays is the first `build()`
 * of a new process: this starts `--processes` fresh processes one after another, each timing one
 * `build()` to ready and a second one in the same process. Run from the repository root:
 *
 *   node --import tsx apps/server/bench/test-build.bench.ts [--processes=5]
 *
 * Prints each process's figures and the medians, with the load average. Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

function arg(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

async function once(): Promise<void> {
  const { build } = await import('../test/helpers/build.ts');
  const figures: number[] = [];
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    const t = await build();
    figures.push(performance.now() - started);
    await t.close();
  }
  console.log(JSON.stringify(figures));
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function main(): void {
  const processes = Number(arg('processes', '5'));
  const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`build() in ${processes} fresh processes; load average ${load()}`);
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < processes; i++) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--once'], { encoding: 'utf8' });
    const [a, b] = JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as number[];
    first.push(a ?? NaN);
    second.push(b ?? NaN);
    console.log(`process ${i + 1}: first build() ${a?.toFixed(0)} ms, second ${b?.toFixed(0)} ms`);
  }
  console.log(`median: first build() ${median(first).toFixed(0)} ms, second ${median(second).toFixed(0)} ms; load average ${load()}`);
}

if (process.argv.includes('--once')) await once();
else main();

// Runs `npm test`'s stages (scripts/test.mjs) and times them. A group's stages run one after the
// other, or side by side when the group is `parallel`: then each stage's output is held and printed
// whole when it ends, so that the log reads stage by stage. The first group with a failed stage is
// the last one run.
import { spawn } from 'node:child_process';

/** Runs one stage; resolves with its exit code, seconds taken and (when `hold`) its output. */
export function runStage(stage, { cwd, hold }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(stage.command, stage.args, { cwd, env: stage.env, stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      resolve({ name: stage.name, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000, output: Buffer.concat(output).toString() });
    });
  });
}

export async function runGroups(groups, { cwd, say, run = runStage }) {
  const results = [];
  for (const group of groups) {
    say(`${group.name}: ${group.stages.map((s) => s.name).join(group.parallel ? ' ‖ ' : ', then ')}`);
    let groupResults;
    if (group.parallel) {
      groupResults = await Promise.all(
        group.stages.map(async (stage) => {
          const result = await run(stage, { cwd, hold: true });
          say(`── ${stage.name} (${result.seconds.toFixed(0)} s, ${result.code === 0 ? 'passed' : `failed with ${result.code}`}) ──`);
          process.stdout.write(result.output);
          return result;
        }),
      );
    } else {
      groupResults = [];
      for (const stage of group.stages) {
        const result = await run(stage, { cwd, hold: false });
        say(`${stage.name}: ${result.seconds.toFixed(0)} s, ${result.code === 0 ? 'passed' : `failed with ${result.code}`}`);
        groupResults.push(result);
        if (result.code !== 0) break;
      }
    }
    results.push(...groupResults);
    if (groupResults.some((r) => r.code !== 0)) break;
  }
  return results;
}

/** The closing table: each stage's time and outcome, and the wall-clock total of the groups. */
export function formatStageTable(results, wallSeconds) {
  const width = Math.max(5, ...results.map((r) => r.name.length));
  const lines = results.map((r) => `  ${r.name.padEnd(width)}  ${formatDuration(r.seconds).padStart(11)}  ${r.code === 0 ? 'passed' : 'FAILED'}`);
  if (wallSeconds !== undefined) lines.push(`  ${'total'.padEnd(width)}  ${formatDuration(wallSeconds).padStart(11)}`);
  return ['[test] stage times:', ...lines].join('\n');
}

export function formatDuration(seconds) {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds - m * 60);
  return m > 0 ? `${m} min ${String(s).padStart(2, '0')} s` : `${s} s`;
}

/** Types of test-stages.mjs (npm test's stages, run and timed). */
export interface Stage {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}
export interface StageGroup {
  name: string;
  parallel?: boolean;
  stages: Stage[];
}
export interface StageResult {
  name: string;
  code: number;
  seconds: number;
  output: string;
}
export function runStage(stage: Stage, opts: { cwd: string; hold: boolean }): Promise<StageResult>;
export function runGroups(
  groups: StageGroup[],
  opts: { cwd: string; say: (msg: string) => void; run?: (stage: Stage, opts: { cwd: string; hold: boolean }) => Promise<StageResult> },
): Promise<StageResult[]>;
export function formatStageTable(results: StageResult[], wallSeconds?: number): string;
export function formatDuration(seconds: number): string;

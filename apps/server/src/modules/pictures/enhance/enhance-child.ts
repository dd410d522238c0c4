import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Forks the process of one enhancement (enhance-process.ts): its stderr piped for the failure
 * message, an IPC channel for the request and its progress. The child ends with its parent.
 */
export function forkEnhancement(): ChildProcess {
  const script = fileURLToPath(new URL('./enhance-process.ts', import.meta.url));
  return fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
}

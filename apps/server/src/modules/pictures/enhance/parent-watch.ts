/**
 * Makes a forked worker end with the process that forked it. A server killed outright (SIGKILL,
 * a crash) sends no word to its children: an enhancement would run on to its end and, its job
 * given back, run a second time beside the restarted server's. The worker exits when its IPC
 * channel closes (between awaits) or, checked by `alive()` while it computes synchronously, when
 * its parent is no longer the one that forked it.
 */
import { readFileSync } from 'node:fs';

/** The parent's pid now: from /proc (a reparented process shows its new parent), else by asking the old one. */
function parentIsGone(parent: number): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so count from the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) return ppid !== parent;
  } catch {
    // No /proc: fall back to signalling the parent.
  }
  try {
    process.kill(parent, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface ParentWatch {
  /** Exits at once if the parent is gone; else true. Cheap enough to call per unit of work. */
  alive(): boolean;
}

/** Starts following the parent: the process exits (code 1) when its parent is gone. */
export function exitWithParent(exit: (code: number) => never = (code) => process.exit(code)): ParentWatch {
  const parent = process.ppid;
  // The channel closes when the parent dies, or when the worker let go of it itself (done): either way, the end.
  process.once('disconnect', () => exit(0));
  const check = () => {
    if (parentIsGone(parent)) exit(1);
    return true;
  };
  // Also while waiting on something other than the channel (a file, the model's weights).
  setInterval(check, 1_000).unref();
  return { alive: check };
}

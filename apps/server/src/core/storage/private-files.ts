import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Keeps a data folder private to the server's user: everything created from now on is owner-only
 * (the embedded database's files and WAL hold password hashes and sessions; recordings are
 * organisations' video), and what an earlier version left group- or world-readable is tightened
 * to 0700 folders and 0600 files.
 */
export function makePrivate(dir: string): void {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
}

/**
 * Tightens a tree again. PGlite sets 0666 on the files it unpacks and creates, whatever the umask;
 * the folder being 0700 already shuts other users out, and this makes the files say so too.
 */
export function tighten(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) tighten(join(path, name));
  } else if ((stat.mode & 0o077) !== 0) {
    chmodSync(path, 0o600);
  }
}

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/core/db/client.ts';
import { seedDemoFleet } from '../../src/core/db/seed.ts';

/** The machine's PostgreSQL (trust auth). Override with TEST_POSTGRES_URL. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseKind = 'pglite' | 'postgres';

/** Where embedded databases to copy are kept between test processes (each test file runs in its own). */
const TEMPLATE_DIR = join(tmpdir(), 'shipcctv-test-databases');
/** A template nobody opened for this long is deleted when another is written. */
const TEMPLATE_UNUSED_MS = 24 * 3_600_000;
/** A template being made for longer than this was left by a process that died: another makes it. */
const TEMPLATE_MAKING_MS = 120_000;

/**
 * What a template's rows follow from: every file of the data layer (schema, migrations, demo seed,
 * the embedded database's thread), how passwords are hashed, and the PGlite and drizzle versions.
 * A change to any of them makes a new template.
 */
function templateKey(seeded: boolean): string {
  const hash = createHash('sha256').update(seeded ? 'seeded\n' : 'migrated\n');
  const add = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(`${path}\n`).update(readFileSync(path));
    }
  };
  add(fileURLToPath(new URL('../../src/core/db', import.meta.url)));
  add(fileURLToPath(new URL('../../src/core/lib/passwords.ts', import.meta.url)));
  const require = createRequire(import.meta.url);
  for (const pkg of ['@electric-sql/pglite', 'drizzle-orm']) {
    // The entry file's folder or one above it holds the package's package.json.
    let dir = dirname(require.resolve(pkg));
    while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
    add(join(dir, 'package.json'));
  }
  return hash.digest('hex').slice(0, 24);
}

const templates = new Map<boolean, Promise<Uint8Array>>();

/**
 * An embedded database, migrated and, when `seeded`, holding the demo fleet, to open copies of:
 * made once and kept on disk, so that each test file opens a copy in a fraction of a second instead
 * of creating a cluster, migrating it and hashing the demo password. The demo rows do not depend on
 * when they were seeded.
 */
export function embeddedTemplate(seeded: boolean): Promise<Uint8Array> {
  let template = templates.get(seeded);
  if (!template) {
    template = loadOrMakeTemplate(seeded);
    templates.set(seeded, template);
    template.catch(() => templates.delete(seeded));
  }
  return template;
}

/** The kept template in `file`, if there is one (its time touched: it is in use). */
function readKept(file: string): Uint8Array | undefined {
  try {
    const kept = readFileSync(file);
    const now = new Date();
    utimesSync(file, now, now);
    return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return undefined;
  }
}

async function loadOrMakeTemplate(seeded: boolean): Promise<Uint8Array> {
  const file = join(TEMPLATE_DIR, `${seeded ? 'seeded' : 'migrated'}-${templateKey(seeded)}.tar`);
  const kept = readKept(file);
  if (kept) return kept;
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  // One test process makes it; the others, which start together on a fresh machine, wait for its
  // file instead of making it beside it (each making costs ~10 s of CPU).
  const lock = `${file}.making`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const made = readKept(file);
    if (made) return made;
    // A maker that died leaves its lock behind: taken over once it is older than any making takes.
    try {
      if (Date.now() - statSync(lock).mtimeMs > TEMPLATE_MAKING_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by its maker.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return readKept(file) ?? (await makeTemplate(file, seeded));
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function makeTemplate(file: string, seeded: boolean): Promise<Uint8Array> {
  const database = await openDatabase({});
  let dump: Uint8Array;
  try {
    if (seeded) await seedDemoFleet(database.db);
    if (!database.dump) throw new Error('the embedded database cannot be dumped');
    dump = await database.dump();
  } finally {
    await database.close();
  }
  for (const name of readdirSync(TEMPLATE_DIR)) {
    const path = join(TEMPLATE_DIR, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > TEMPLATE_UNUSED_MS) rmSync(path, { force: true });
    } catch {
      // Another test process removed it first.
    }
  }
  // Written aside and renamed, so that a test process reading it meanwhile never sees half a file.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, dump);
  renameSync(partial, file);
  return dump;
}

/**
 * A fresh, migrated database of either kind. PostgreSQL gets a throw-away database of its own so
 * test files never see each other's rows; `close` drops it. An embedded one is a copy of a kept
 * template; `seeded` has it hold the demo fleet already (seeding again then leaves it as it is).
 */
export async function freshDatabase(kind: DatabaseKind, opts: { seeded?: boolean } = {}): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openDatabase({ template: await embeddedTemplate(opts.seeded ?? false) });
  const name = `shipcctv_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  const fresh = {
    ...database,
    /** For a second connection pool to the same database (another server instance). */
    url: url.toString(),
    async close() {
      await database.close();
      const drop = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
  if (opts.seeded) {
    await seedDemoFleet(database.db).catch(async (err: unknown) => {
      await fresh.close();
      throw err;
    });
  }
  return fresh;
}

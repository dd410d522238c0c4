import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/core/db/client.ts';
import { settings } from '../../src/core/db/schema.ts';
import { signingKeyFile } from '../../src/modules/sessions/signing-key.ts';
import { logon } from '../helpers/build.ts';
import { embeddedTemplate } from '../helpers/database.ts';

function walk(dir: string, out: { path: string; mode: number; dir: boolean }[] = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    out.push({ path, mode: st.mode & 0o777, dir: st.isDirectory() });
    if (st.isDirectory()) walk(path, out);
  }
  return out;
}

describe('the data folder is private and the signing key is not in the database', () => {
  const apps: App[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  // A new server's first start: it creates a database cluster (about 5 s of CPU on a quiet machine,
  // 27 s measured while the rest of the unit stage loaded both cores), as the data-layer test's does.
  it('creates folders 0700 and files 0600, tightens what was open, and keeps the key in a 0600 file', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ship-cctv-data-'));
    // What an earlier version left behind: world-readable.
    mkdirSync(join(dataDir, 'recordings', 'r1'), { recursive: true });
    writeFileSync(join(dataDir, 'recordings', 'r1', 'old.m4s'), 'x');
    chmodSync(join(dataDir, 'recordings', 'r1', 'old.m4s'), 0o666);
    chmodSync(join(dataDir, 'recordings'), 0o777);

    const app = await buildApp({ dataDir, seedDemo: true });
    apps.push(app);
    await app.ready();
    await logon(app, 'demo');

    const entries = walk(dataDir);
    expect(entries.filter((e) => e.path.includes('pglite')).length).toBeGreaterThan(10);
    const open = entries.filter((e) => (e.dir ? e.mode !== 0o700 : e.mode !== 0o600)).map((e) => `${e.path} ${e.mode.toString(8)}`);
    expect(open).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const keyFile = signingKeyFile(dataDir);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64').length).toBe(32);
    expect(await app.database.db.select().from(settings).where(eq(settings.key, 'jwt-signing-key'))).toEqual([]);
  });

  it('moves a key an earlier version kept in the database to the key file, so its tokens stay valid', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ship-cctv-data-'));
    const legacy = Buffer.alloc(32, 7).toString('base64');
    // An earlier version's data folder: the demo database (a copy of the kept one, instead of a new
    // cluster) holding the key in its settings.
    const before = await openDatabase({ dataDir, template: await embeddedTemplate(true) });
    await before.db.insert(settings).values({ key: 'jwt-signing-key', value: legacy });
    await before.close();

    const app = await buildApp({ dataDir, seedDemo: true });
    apps.push(app);
    await app.ready();
    expect(readFileSync(signingKeyFile(dataDir), 'utf8').trim()).toBe(legacy);
    expect(await app.database.db.select().from(settings).where(eq(settings.key, 'jwt-signing-key'))).toEqual([]);
  });

  it('refuses a JWT_SECRET too short to be a key, before it creates a database', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ship-cctv-data-')), 'data');
    await expect(buildApp({ jwtSecret: 'short', dataDir })).rejects.toThrow(/at least 32 characters/);
    expect(existsSync(dataDir)).toBe(false);
  });
});

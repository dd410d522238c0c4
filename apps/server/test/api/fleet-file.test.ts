import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFleetFile } from '../../src/modules/fleet/fleet-file.ts';
import { type TestApp, build } from '../helpers/build.ts';

interface FleetFile {
  ships: { shipId: string; key: string }[];
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as FleetFile;

describe('the simulated fleet file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => t?.close());

  it('keeps every ship key across a server restart, so a running fleet stays connected', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'fleet-file-')), 'fleet.json');
    await writeFleetFile(t.app.database.db, t.app.agentKeys, path, 'ws://x');
    const first = read(path);
    expect(first.ships.length).toBeGreaterThan(3);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // The server starts again and provisions from the same file.
    await writeFleetFile(t.app.database.db, t.app.agentKeys, path, 'ws://x');
    const second = read(path);
    expect(second.ships).toEqual(first.ships);
    for (const { shipId, key } of first.ships) expect(await t.app.agentKeys.verify(shipId, key)).toBe(true);
  });

  it('issues a new key to a ship whose key in the file is no longer valid', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'fleet-file-')), 'fleet.json');
    await writeFleetFile(t.app.database.db, t.app.agentKeys, path, 'ws://x');
    const [one] = read(path).ships;
    if (!one) throw new Error('no ship');
    const replaced = await t.app.agentKeys.issue(one.shipId);
    await writeFleetFile(t.app.database.db, t.app.agentKeys, path, 'ws://x');
    const again = read(path).ships.find((s) => s.shipId === one.shipId);
    expect(again?.key).not.toBe(one.key);
    expect(again?.key).not.toBe(replaced);
    expect(await t.app.agentKeys.verify(one.shipId, again?.key ?? '')).toBe(true);
  });
});

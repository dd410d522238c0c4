import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraSource, dest } from '@ship-cctv/protocol';
import * as t from '../../src/core/db/schema.ts';
import { type TestApp, build } from '../helpers/build.ts';

/** Which ships a /mediaList destination speaks of follows the same rule as where a camera publishes. */
describe('ships of a STOMP destination', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await build();
  });
  afterAll(async () => app?.close());

  it('finds a landsea camera whatever the order of its source parameters', async () => {
    const db = app.app.database.db;
    const [camera] = await db.select().from(t.cameras).where(eq(t.cameras.sourceType, 'xplus')).limit(1);
    if (!camera) throw new Error('the demo fleet has no landsea camera');
    // The instance last, with no bar after it: the rule reads it up to a bar or the end.
    const other = 'iosChannelId=1|cctvInstanceId=XP-7777';
    await db.update(t.cameras).set({ other }).where(eq(t.cameras.id, camera.id));
    expect(cameraSource('xplus', other, 'any ship').instanceId).toBe('XP-7777');
    const ships = await app.app.fleet.shipsForDestination(dest.mediaList('XP-7777'));
    expect(ships.map((s) => s.id)).toHaveLength(1);
    // A prefix of the instance is another instance.
    expect(await app.app.fleet.shipsForDestination(dest.mediaList('XP-777'))).toEqual([]);
    // A ship's own name is the instance of its other sources.
    const [ship] = await db.select().from(t.ships).limit(1);
    expect((await app.app.fleet.shipsForDestination(dest.mediaList(ship!.name))).map((s) => s.id)).toEqual([ship!.id]);
  });
});

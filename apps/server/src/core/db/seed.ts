import { and, eq, inArray, sql } from 'drizzle-orm';
import { hashPassword } from '../lib/passwords.ts';
import type { Db } from './client.ts';
import {
  DEMO_PASSWORD,
  demoCameraOther,
  demoDefinitionTiers,
  demoSatelliteTiers,
  demoOrganizations,
  demoRecordConfigId,
  demoRecordedShipIds,
  demoShips,
  demoUsers,
} from './demo-fleet.ts';
import * as t from './schema.ts';

const SEED_LOCK = 7_245_002;
/** Settings key that says the demo record configurations were seeded (once: deleting them sticks). */
const RECORD_CONFIGS_SEEDED = 'demo.recordConfigsSeeded';

/** Settings key that says the satellite tier's definitions were added to the demo groups (once). */
const SATELLITE_TIERS_SEEDED = 'demo.satelliteTiersSeeded';

/** Settings key that says the satellite definitions seeded at 32 kbit/s took demoSatelliteTiers' rate (once). */
const SATELLITE_TIERS_RETUNED = 'demo.satelliteTiersRetuned';

/** The satellite tier as it was first seeded (32 kbit/s): what the one-time retune moves, and nothing an operator changed. */
const FIRST_SATELLITE_TIER = { width: 320, height: 180, frameRate: 3, bitrateKbps: 32 } as const;

/**
 * Group ids of the demo: one standard group per top-level organisation, one group without models.
 * `satelliteModelIds`: the ids of the group's satellite-tier models (demoSatelliteTiers, in order).
 */
const GROUPS = [
  { id: 1, orgId: 'blueocean', displayName: '标准', displayNameEn: 'Standard', firstModelId: 5, satelliteModelIds: [11, 12] },
  { id: 2, orgId: 'njzsz', displayName: '标准', displayNameEn: 'Standard', firstModelId: 8, satelliteModelIds: [13, 14] },
  { id: 3, orgId: 'blueocean', displayName: '旧版（无模板）', displayNameEn: 'Legacy (no models)', firstModelId: null, satelliteModelIds: [] },
] as const;

function topLevelOrg(orgId: string): string {
  const org = demoOrganizations.find((o) => o.id === orgId);
  return org?.parentId ?? orgId;
}

/**
 * Seeds the demo fleet when the database holds no organisation yet. Safe when several server
 * instances start at once: the transaction-scoped lock lets one seed and the others see its rows.
 * Returns true when it seeded.
 */
export async function seedDemoFleet(db: Db): Promise<boolean> {
  const seeded = await seedFleet(db);
  await seedDemoRecordConfigs(db);
  await seedSatelliteTiers(db);
  await retuneSatelliteTiers(db);
  return seeded;
}

/**
 * The satellite tier's definitions in the demo's standard groups, once per database — also into a
 * database seeded before the tier existed (a group or id that is gone is left alone; deleting them
 * later sticks).
 */
export async function seedSatelliteTiers(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [done] = await tx.select().from(t.settings).where(eq(t.settings.key, SATELLITE_TIERS_SEEDED));
    if (done) return;
    const groups = await tx.select({ id: t.definitionGroups.id }).from(t.definitionGroups);
    const present = new Set(groups.map((g) => g.id));
    const rows = GROUPS.filter((g) => present.has(g.id)).flatMap((g) =>
      g.satelliteModelIds.map((id, i) => {
        const tier = demoSatelliteTiers[i] as (typeof demoSatelliteTiers)[number];
        return { id, groupId: g.id, ...tier };
      }),
    );
    if (rows.length > 0) {
      await tx.insert(t.definitionModels).values(rows).onConflictDoNothing();
      // Explicit ids in a serial column: the sequence moves past them (never back: ids it gave out stay taken).
      await tx.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('definition_models', 'id'), greatest((select max(id) from definition_models), nextval(pg_get_serial_sequence('definition_models', 'id'))))`,
        ),
      );
    }
    await tx.insert(t.settings).values({ key: SATELLITE_TIERS_SEEDED, value: String(Date.now()) });
  });
}

/**
 * The satellite tier was first seeded at 32 kbit/s; six such cameras over one FleetBroadband link
 * (1 % loss, 700 ms round trip) ask more than one TCP connection carries after losses halve its
 * window, so their pictures fell seconds behind (demoSatelliteTiers says more). Once per database,
 * the demo groups' satellite definitions still exactly as first seeded take demoSatelliteTiers'
 * rate; one an operator changed is left as it is.
 */
export async function retuneSatelliteTiers(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [done] = await tx.select().from(t.settings).where(eq(t.settings.key, SATELLITE_TIERS_RETUNED));
    if (done) return;
    for (const g of GROUPS) {
      for (const [i, id] of g.satelliteModelIds.entries()) {
        const tier = demoSatelliteTiers[i] as (typeof demoSatelliteTiers)[number];
        await tx
          .update(t.definitionModels)
          .set({ bitrateKbps: tier.bitrateKbps })
          .where(
            and(
              eq(t.definitionModels.id, id),
              eq(t.definitionModels.codec, tier.codec),
              eq(t.definitionModels.width, FIRST_SATELLITE_TIER.width),
              eq(t.definitionModels.height, FIRST_SATELLITE_TIER.height),
              eq(t.definitionModels.frameRate, FIRST_SATELLITE_TIER.frameRate),
              eq(t.definitionModels.bitrateKbps, FIRST_SATELLITE_TIER.bitrateKbps),
            ),
          );
      }
    }
    await tx.insert(t.settings).values({ key: SATELLITE_TIERS_RETUNED, value: String(Date.now()) });
  });
}

/**
 * Continuous shore recording configurations for every camera of the demo's recorded ships, once per
 * database — also into a database seeded before recording configurations existed.
 */
export async function seedDemoRecordConfigs(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [done] = await tx.select().from(t.settings).where(eq(t.settings.key, RECORD_CONFIGS_SEEDED));
    if (done) return;
    const cameras = await tx
      .select({ id: t.cameras.id })
      .from(t.cameras)
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .where(inArray(t.channels.shipId, [...demoRecordedShipIds]));
    if (cameras.length > 0) {
      await tx
        .insert(t.recordConfigs)
        .values(cameras.map((c) => ({ id: demoRecordConfigId(c.id), cameraId: c.id, mode: 'continuous', schedule: [], enabled: true })))
        .onConflictDoNothing();
    }
    await tx.insert(t.settings).values({ key: RECORD_CONFIGS_SEEDED, value: String(Date.now()) });
  });
}

async function seedFleet(db: Db): Promise<boolean> {
  // A database that holds data already (each restart, each copy of a seeded one) costs no hashing.
  const held = await db.select({ id: t.organizations.id }).from(t.organizations).limit(1);
  if (held.length > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const existing = await tx.select({ id: t.organizations.id }).from(t.organizations).limit(1);
    if (existing.length > 0) return false;

    await tx.insert(t.organizations).values(demoOrganizations.map((o) => ({ ...o })));
    await tx.insert(t.users).values(demoUsers.map((u) => ({ id: u.id, username: u.username, displayName: u.displayName, passwordHash })));
    await tx
      .insert(t.memberships)
      .values(demoUsers.flatMap((u) => u.orgIds.map((orgId) => ({ userId: u.id, orgId, role: u.role }))));

    for (const g of GROUPS) {
      const defaultModelId = g.firstModelId === null ? null : g.firstModelId + 1;
      await tx.insert(t.definitionGroups).values({ id: g.id, orgId: g.orgId, displayName: g.displayName, displayNameEn: g.displayNameEn, defaultModelId });
      if (g.firstModelId !== null) {
        const first = g.firstModelId;
        await tx.insert(t.definitionModels).values(
          demoDefinitionTiers.map((tier) => ({
            id: first + tier.offset,
            groupId: g.id,
            displayName: tier.displayName,
            displayNameEn: tier.displayNameEn,
            width: tier.width,
            height: tier.height,
            frameRate: tier.frameRate,
            bitrateKbps: tier.bitrateKbps,
            codec: 'h264',
          })),
        );
      }
    }

    const tagChannels = new Map<string, { nav: string[]; engine: string[] }>();
    for (const [shipIndex, ship] of demoShips.entries()) {
      await tx.insert(t.ships).values({
        id: ship.id,
        name: ship.name,
        enName: ship.enName,
        orgId: ship.orgId,
        timeZone: ship.timeZone,
        sort: shipIndex,
        jsonObject: { version: '3', third: ship.xplusId ? [{ type: 'xplus', thirdId: ship.xplusId }] : [] },
      });
      const top = topLevelOrg(ship.orgId);
      const groupIds = GROUPS.filter((g) => g.orgId === top).map((g) => g.id);
      const standard = groupIds[0] ?? null;
      await tx.insert(t.shipConfigs).values({
        shipId: ship.id,
        defaultGroupId: ship.hasDefault ? standard : null,
        talk: ship.talk,
        audio: ship.audio,
      });
      if (groupIds.length > 0) {
        await tx.insert(t.shipDefinitionGroups).values(groupIds.map((groupId) => ({ shipId: ship.id, groupId })));
      }
      const tags = tagChannels.get(top) ?? { nav: [], engine: [] };
      tagChannels.set(top, tags);
      // Numbers the ship's cameras one after another, so that no two share a source channel (iosChannelId).
      let cameraOrdinal = 0;
      for (const [channelIndex, channel] of ship.channels.entries()) {
        const channelId = `${ship.id}-C${String(channelIndex + 1).padStart(2, '0')}`;
        await tx.insert(t.channels).values({
          id: channelId,
          shipId: ship.id,
          name: channel.name,
          block: channel.block ?? 0,
          sort: channelIndex,
        });
        await tx.insert(t.cameras).values(
          channel.cameras.map((c, cameraIndex) => {
            const cameraId = `${channelId}-${cameraIndex + 1}`;
            return {
              id: cameraId,
              channelId,
              name: c.name,
              type: c.type,
              sourceType: c.sourceType,
              other: demoCameraOther(ship, cameraId, c.sourceType, cameraOrdinal++),
              sort: cameraIndex,
            };
          }),
        );
        if (/bridge/i.test(channel.name)) tags.nav.push(channelId);
        if (/engine/i.test(channel.name)) tags.engine.push(channelId);
      }
    }

    for (const [orgId, tags] of tagChannels) {
      for (const [name, ids] of [
        ['Navigation', tags.nav],
        ['Engine', tags.engine],
      ] as const) {
        const [tag] = await tx.insert(t.channelTags).values({ orgId, name }).returning({ id: t.channelTags.id });
        if (tag && ids.length > 0) {
          await tx.insert(t.channelTagMembers).values(ids.map((channelId) => ({ tagId: tag.id, channelId })));
        }
      }
    }

    // Explicit ids were inserted into serial columns: move the sequences past them.
    for (const table of ['definition_groups', 'definition_models'] as const) {
      await tx.execute(
        sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`),
      );
    }
    return true;
  });
}

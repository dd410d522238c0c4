import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';
import type { OrgTree } from '../../core/orgs/org-tree.ts';
import type { BackfillDefinition } from '@ship-cctv/protocol';
import { backfillDefinitionOf } from '../recorder/index.ts';

/** A camera whose shore recording backfill keeps whole: its recording configuration says so. */
export interface BackfillTarget {
  cameraId: string;
  configId: string;
  orgId: string;
  /** The camera's own choice of definition (null: its organisation's). */
  definition: BackfillDefinition | null;
}

/** What applies to an organisation, and whose it is (null: nobody set one — on, `recorded`). */
export interface BackfillOrgApplies {
  enabled: boolean;
  fromOrgId: string | null;
  definition: BackfillDefinition;
  definitionFromOrgId: string | null;
}

export interface RecordingRun {
  id: string;
  start: number;
  end: number;
  endedUnwatched: boolean;
  backfilled: boolean;
  templateId: number;
  open: boolean;
}

/** What backfill reads and keeps in the database (its recordings go through the recorder's store). */
export class BackfillRepo {
  constructor(private readonly db: Db) {}

  /** The cameras of a ship with an enabled recording configuration that has backfill on (one configuration each). */
  async targets(shipId: string): Promise<BackfillTarget[]> {
    const rows = await this.db
      .select({ cameraId: t.recordConfigs.cameraId, configId: t.recordConfigs.id, orgId: t.ships.orgId, definition: t.recordConfigs.backfillDefinition })
      .from(t.recordConfigs)
      .innerJoin(t.cameras, eq(t.cameras.id, t.recordConfigs.cameraId))
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(eq(t.ships.id, shipId), eq(t.recordConfigs.enabled, true), eq(t.recordConfigs.backfill, true)))
      .orderBy(asc(t.recordConfigs.cameraId), asc(t.recordConfigs.id));
    const seen = new Set<string>();
    return rows.filter((r) => !seen.has(r.cameraId) && seen.add(r.cameraId)).map((r) => ({ ...r, definition: backfillDefinitionOf(r.definition) }));
  }

  /**
   * A camera's shore recording configuration (enabled), whether or not it refills gaps: where an
   * event's video fetched by its organisation's rule is recorded. Undefined: not recorded on shore.
   */
  async targetOf(shipId: string, cameraId: string): Promise<BackfillTarget | undefined> {
    const [row] = await this.db
      .select({ cameraId: t.recordConfigs.cameraId, configId: t.recordConfigs.id, orgId: t.ships.orgId, definition: t.recordConfigs.backfillDefinition })
      .from(t.recordConfigs)
      .innerJoin(t.cameras, eq(t.cameras.id, t.recordConfigs.cameraId))
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(eq(t.ships.id, shipId), eq(t.recordConfigs.cameraId, cameraId), eq(t.recordConfigs.enabled, true)))
      .orderBy(asc(t.recordConfigs.id))
      .limit(1);
    return row && { ...row, definition: backfillDefinitionOf(row.definition) };
  }

  /** A camera's recordings (with segments) ending after `from`, oldest first. */
  async runs(cameraId: string, from: number): Promise<RecordingRun[]> {
    return this.db
      .select({
        id: t.recordings.id,
        start: t.recordings.startMs,
        end: t.recordings.endMs,
        endedUnwatched: t.recordings.endedUnwatched,
        backfilled: t.recordings.backfilled,
        templateId: t.recordings.templateId,
        open: t.recordings.open,
      })
      .from(t.recordings)
      .where(and(eq(t.recordings.cameraId, cameraId), gt(t.recordings.endMs, from), gt(t.recordings.segments, 0)))
      .orderBy(asc(t.recordings.startMs));
  }

  /** Whether backfill is on for an organisation: its own switch, else the nearest one above it; none anywhere: on. */
  async orgEnabled(orgId: string, orgs: OrgTree): Promise<boolean> {
    return (await this.orgSetting(orgId, orgs)).enabled;
  }

  /**
   * The switch and the definition that apply to an organisation, each its own or the nearest one
   * above it (a row may set one and leave the other to those above), and whose each is.
   */
  async orgSetting(orgId: string, orgs: OrgTree): Promise<BackfillOrgApplies> {
    const chain = orgs.ancestors(orgId);
    const rows = chain.length === 0 ? [] : await this.db.select().from(t.backfillOrgSettings).where(inArray(t.backfillOrgSettings.orgId, chain));
    const byOrg = new Map(rows.map((r) => [r.orgId, r]));
    const switchFrom = chain.find((id) => typeof byOrg.get(id)?.enabled === 'boolean');
    const definitionFrom = chain.find((id) => backfillDefinitionOf(byOrg.get(id)?.definition ?? null) !== null);
    return {
      enabled: switchFrom === undefined ? true : (byOrg.get(switchFrom)?.enabled ?? true),
      fromOrgId: switchFrom ?? null,
      definition: (definitionFrom === undefined ? null : backfillDefinitionOf(byOrg.get(definitionFrom)?.definition ?? null)) ?? 'recorded',
      definitionFromOrgId: definitionFrom ?? null,
    };
  }

  /** An organisation's own switch and/or definition (what is left out stays as it was). */
  async setOrg(orgId: string, change: { enabled?: boolean | undefined; definition?: BackfillDefinition | undefined }, by: string): Promise<void> {
    const set = {
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      ...(change.definition !== undefined ? { definition: change.definition } : {}),
      updatedBy: by,
      updatedAt: new Date(),
    };
    await this.db
      .insert(t.backfillOrgSettings)
      .values({ orgId, enabled: change.enabled ?? null, definition: change.definition ?? null, updatedBy: by, updatedAt: set.updatedAt })
      .onConflictDoUpdate({ target: t.backfillOrgSettings.orgId, set });
  }
}

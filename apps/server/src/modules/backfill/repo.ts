import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';
import type { OrgTree } from '../../core/orgs/org-tree.ts';

/** A camera whose shore recording backfill keeps whole: its recording configuration says so. */
export interface BackfillTarget {
  cameraId: string;
  configId: string;
  orgId: string;
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
      .select({ cameraId: t.recordConfigs.cameraId, configId: t.recordConfigs.id, orgId: t.ships.orgId })
      .from(t.recordConfigs)
      .innerJoin(t.cameras, eq(t.cameras.id, t.recordConfigs.cameraId))
      .innerJoin(t.channels, eq(t.channels.id, t.cameras.channelId))
      .innerJoin(t.ships, eq(t.ships.id, t.channels.shipId))
      .where(and(eq(t.ships.id, shipId), eq(t.recordConfigs.enabled, true), eq(t.recordConfigs.backfill, true)))
      .orderBy(asc(t.recordConfigs.cameraId), asc(t.recordConfigs.id));
    const seen = new Set<string>();
    return rows.filter((r) => !seen.has(r.cameraId) && seen.add(r.cameraId));
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

  /** The switch that applies to an organisation, and whose it is (null: nobody set one, so on). */
  async orgSetting(orgId: string, orgs: OrgTree): Promise<{ enabled: boolean; fromOrgId: string | null }> {
    const chain = orgs.ancestors(orgId);
    if (chain.length === 0) return { enabled: true, fromOrgId: null };
    const rows = await this.db.select().from(t.backfillOrgSettings).where(inArray(t.backfillOrgSettings.orgId, chain));
    const byOrg = new Map(rows.map((r) => [r.orgId, r.enabled]));
    const nearest = chain.find((id) => byOrg.has(id));
    return nearest === undefined ? { enabled: true, fromOrgId: null } : { enabled: byOrg.get(nearest) ?? true, fromOrgId: nearest };
  }

  async setOrgEnabled(orgId: string, enabled: boolean, by: string): Promise<void> {
    const values = { enabled, updatedBy: by, updatedAt: new Date() };
    await this.db
      .insert(t.backfillOrgSettings)
      .values({ orgId, ...values })
      .onConflictDoUpdate({ target: t.backfillOrgSettings.orgId, set: values });
  }
}

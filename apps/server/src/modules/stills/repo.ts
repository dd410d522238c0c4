import { and, eq } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';

export type StillRow = typeof t.cameraStills.$inferSelect;

/** Each camera's last take of the stills mode (camera_stills). */
export class StillRepo {
  constructor(private readonly db: Db) {}

  async row(cameraId: string): Promise<StillRow | undefined> {
    const [row] = await this.db.select().from(t.cameraStills).where(eq(t.cameraStills.cameraId, cameraId));
    return row;
  }

  /**
   * Claims the next take: true for one caller only, whichever instance it is on — an insert when the
   * camera has no row, else an update where the row still names the previous picture.
   */
  async claim(cameraId: string, previous: string | undefined, pictureId: string, requestedAt: Date): Promise<boolean> {
    const values = { pictureId, requestedAt, state: 'asked', bytes: null, code: null, message: null };
    const claimed =
      previous === undefined
        ? await this.db.insert(t.cameraStills).values({ cameraId, ...values }).onConflictDoNothing({ target: t.cameraStills.cameraId }).returning({ id: t.cameraStills.cameraId })
        : await this.db
            .update(t.cameraStills)
            .set(values)
            .where(and(eq(t.cameraStills.cameraId, cameraId), eq(t.cameraStills.pictureId, previous)))
            .returning({ id: t.cameraStills.cameraId });
    return claimed.length > 0;
  }

  /** What became of a take, kept only while it is still the camera's latest. */
  async settle(cameraId: string, pictureId: string, outcome: { state: string; bytes: number | null; code: string | null; message: string | null }): Promise<void> {
    await this.db
      .update(t.cameraStills)
      .set(outcome)
      .where(and(eq(t.cameraStills.cameraId, cameraId), eq(t.cameraStills.pictureId, pictureId)));
  }
}

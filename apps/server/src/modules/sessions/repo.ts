import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../core/db/client.ts';
import { sessions, settings, users } from '../../core/db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/** The sessions module's reads and writes: users, their sessions, and the signing key's old settings row. */
export class SessionRepo {
  constructor(private readonly db: Db) {}

  async userByName(username: string): Promise<UserRow | undefined> {
    const [user] = await this.db.select().from(users).where(eq(users.username, username));
    return user;
  }

  async userById(userId: string): Promise<UserRow | undefined> {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    return user;
  }

  /**
   * Opens a session for the user and ends (as displaced) every session of theirs still open, in one
   * transaction holding the user's row, so two simultaneous sign-ins end in one active session.
   * Answers the ids of the sessions it displaced.
   */
  startSession(session: { id: string; userId: string; expiresAt: Date; address: string; userAgent: string | undefined }): Promise<{ id: string }[]> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, session.userId)).for('update');
      const ended = await tx
        .update(sessions)
        .set({ endedAt: new Date(), endReason: 'displaced' })
        .where(and(eq(sessions.userId, session.userId), isNull(sessions.endedAt)))
        .returning({ id: sessions.id });
      await tx.insert(sessions).values(session);
      return ended;
    });
  }

  /** A session and its user, or undefined. */
  async sessionWithUser(sessionId: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, sessionId));
    return row;
  }

  /** Ends a session still open (logout). */
  async endSession(sessionId: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ endedAt: new Date(), endReason: 'logout' })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt)));
  }

  async touch(sessionId: string): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, sessionId));
  }
}

/** An installation-wide setting's value, or undefined. */
export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row?.value;
}

export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.delete(settings).where(eq(settings.key, key));
}

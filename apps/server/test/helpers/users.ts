import type { Db } from '../../src/core/db/client.ts';
import { memberships, users } from '../../src/core/db/schema.ts';
import { DEMO_PASSWORD } from '../../src/core/db/demo-fleet.ts';
import { hashPassword } from '../../src/core/lib/passwords.ts';

export interface ExtraUser {
  id: string;
  username: string;
  orgIds: string[];
  password?: string;
}

/** Adds a user (beyond the demo sign-ins) directly to the database, with memberships. */
export async function addUser(db: Db, user: ExtraUser): Promise<void> {
  await db.insert(users).values({
    id: user.id,
    username: user.username,
    displayName: `Test ${user.username}`,
    passwordHash: await hashPassword(user.password ?? DEMO_PASSWORD),
  });
  if (user.orgIds.length > 0) {
    await db.insert(memberships).values(user.orgIds.map((orgId) => ({ userId: user.id, orgId, role: 'manager' })));
  }
}

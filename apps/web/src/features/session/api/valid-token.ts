import type { UserInfo } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * `GET /api/v1/sys/valid/token` (spec §7): checks the query token (handed over by another portal
 * on /jump) or else the cas-jwt header, answering the user. Sessionless: a failure here is the
 * guard's or the jump screen's to handle (spec §4), not a session that ended while in use.
 */
export async function validToken(token?: string): Promise<UserInfo> {
  const user = await apiClient.get<UserInfo | null>('/sys/valid/token', { query: { token }, sessionless: true });
  // Spec §5: a check that answers no data is a rejection.
  if (!user) throw new Error('token check answered no data');
  return user;
}

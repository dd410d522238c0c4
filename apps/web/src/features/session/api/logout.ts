import { apiClient } from '../../../lib/api-client.ts';

/** `GET /api/v1/sys/logout` (spec §7). Sessionless: a session already gone must not route twice. */
export function logout(): Promise<null> {
  return apiClient.get<null>('/sys/logout', { sessionless: true });
}

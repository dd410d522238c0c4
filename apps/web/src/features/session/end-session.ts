import type { QueryClient } from '@tanstack/react-query';
import { COOKIES } from '@ship-cctv/protocol';
import { deleteCookie } from '../../lib/cookies.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { sessionStore } from '../../lib/session-store.ts';

/**
 * Everything this tab forgets when a session ends, whichever way (logout, 401, 402, failed
 * validation): the socket and its values, the token cookie, the user and every cached answer.
 */
export function endLocalSession(queryClient: QueryClient): void {
  realtime.stop();
  deleteCookie(COOKIES.token);
  deleteCookie(COOKIES.isJump);
  sessionStore.clear();
  queryClient.clear();
}

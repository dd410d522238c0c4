import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { realtime } from '../../../lib/realtime/index.ts';
import { logout } from '../api/logout.ts';
import { endLocalSession } from '../end-session.ts';
import { LOGIN_PATH } from '../route-guard.ts';

/** Spec §4 logout: disconnect the socket, tell the server, delete the token, go to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    // The socket goes first: the server ends its STOMP session with an ERROR once the logout is
    // through, which would otherwise read as the session ending elsewhere.
    realtime.stop();
    try {
      await logout();
    } catch {
      // The server may be unreachable or the session already gone: signing out here still must work.
    }
    endLocalSession(queryClient);
    await navigate(LOGIN_PATH, { replace: true });
  }, [navigate, queryClient]);
}

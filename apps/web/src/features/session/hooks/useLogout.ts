import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { logout } from '../api/logout.ts';
import { endLocalSession } from '../end-session.ts';
import { LOGIN_PATH } from '../route-guard.ts';

/** Spec §4 logout: tell the server, disconnect the socket, delete the token, go to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await logout();
    } catch {
      // The server may be unreachable or the session already gone: signing out here still must work.
    }
    endLocalSession(queryClient);
    await navigate(LOGIN_PATH, { replace: true });
  }, [navigate, queryClient]);
}

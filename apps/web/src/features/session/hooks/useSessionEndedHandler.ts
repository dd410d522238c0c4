import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CODES } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { endLocalSession } from '../end-session.ts';
import { sessionEndedTarget } from '../route-guard.ts';

/**
 * The ONE place where a session that ended elsewhere is handled (spec §8): a 401/402 from any
 * call (the api client reports them) or a STOMP ERROR with those codes. Mounted once, inside the router.
 */
export function useSessionEndedHandler(): void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  const pathname = useRef(location.pathname);
  pathname.current = location.pathname;
  /** Where an ended session is on its way to; the rest of the sign-out waits until it is there. */
  const leavingTo = useRef<string | null>(null);

  // react-router renders navigations as transitions, while clearing the session re-renders the
  // route guard at once: forgetting the session before the new route shows would let the guard
  // send a displaced user (402 → /repeatLogin) to /login instead.
  useEffect(() => {
    if (leavingTo.current && location.pathname === leavingTo.current) {
      leavingTo.current = null;
      endLocalSession(queryClient);
    }
  }, [location.pathname, queryClient]);

  useEffect(() => {
    const end = (code: number, source: string) => {
      // Logged so an operator (or a test trace) can tell why the app signed out.
      console.warn(`session ended (${code}) by ${source}`);
      realtime.stop();
      const to = sessionEndedTarget(code, pathname.current);
      if (to) {
        leavingTo.current = to;
        void navigate(to, { replace: true });
      } else {
        endLocalSession(queryClient);
      }
    };
    const offApi = apiClient.onSessionEnded((error) => {
      const displaced = error.code === CODES.displaced || error.status === CODES.displaced;
      end(displaced ? CODES.displaced : CODES.unauthorized, error.message);
    });
    const offSocket = realtime.onSessionEnded((code) => end(code, 'STOMP ERROR'));
    return () => {
      offApi();
      offSocket();
    };
  }, [navigate, queryClient]);
}

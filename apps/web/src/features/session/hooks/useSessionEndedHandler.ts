import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CODES } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { endLocalSession } from '../end-session.ts';
import { sessionEndedTarget } from '../route-guard.ts';

/**
 * The ONE place where a session that ended elsewhere is handled (spec §8): a 401/402 from any
 * call (the api client reports them) or a STOMP ERROR with those codes. Mounted once, inside the router.
 *
 * One ending brings several signals (every call in flight, the socket, then calls sent without
 * the token answer 401): the first decides where the user goes, the rest change nothing until
 * someone signs in again.
 */
export function useSessionEndedHandler(): void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  // The route on screen: set once a render is committed, never by a navigation still rendering
  // (its page may still be loading), which would read as "already there".
  const pathname = useRef(location.pathname);
  useLayoutEffect(() => {
    pathname.current = location.pathname;
  }, [location.pathname]);
  /** Where an ended session is on its way to; the rest of the sign-out waits until it is there. */
  const leavingTo = useRef<string | null>(null);
  /** This session's ending was handled; a sign-in (a user in the session store) starts a new one. */
  const ended = useRef(false);

  useEffect(
    () =>
      sessionStore.subscribe(() => {
        if (sessionStore.user) ended.current = false;
      }),
    [],
  );

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
      if (ended.current) return;
      ended.current = true;
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

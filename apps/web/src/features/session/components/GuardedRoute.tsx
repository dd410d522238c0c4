import { useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COOKIES } from '@ship-cctv/protocol';
import { readCookie } from '../../../lib/cookies.ts';
import { validToken } from '../api/valid-token.ts';
import { endLocalSession } from '../end-session.ts';
import { LOGIN_PATH, decideRoute, validationRetryMs } from '../route-guard.ts';
import { sessionStore, useSessionUser } from '../../../lib/session-store.ts';

/** The full-page spinner a layout shows while something is checked (antd on desktop, antd-mobile on phones). */
export type FullPageWaiting = ComponentType<{ tip: string }>;

/**
 * Validates the token once per page load, then renders the route; a failure signs out (spec §4).
 * A check the server did not answer for itself is asked again twice first (validationRetryMs).
 */
function ValidateOnce({ children, Waiting }: { children: ReactNode; Waiting: FullPageWaiting }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  // A ref, not state: StrictMode runs the effect twice on the same instance, and one check is enough.
  const started = useRef(false);

  useEffect(() => {
    if (user || started.current) return;
    started.current = true;
    const check = (attempt: number) =>
      validToken().then(
        (valid) => sessionStore.signedIn(valid),
        (error: unknown) => {
          const wait = validationRetryMs(error, attempt);
          if (wait !== undefined) return void setTimeout(() => check(attempt + 1), wait);
          endLocalSession(queryClient);
          void navigate(LOGIN_PATH, { replace: true });
        },
      );
    void check(1);
  }, [user, navigate, queryClient]);

  return user ? children : <Waiting tip={t('session.checking')} />;
}

/**
 * Spec §4 guard around a route, free of any UI library so that the desktop and the mobile layout
 * share it. `auth` routes need the token cookie; `login` is left for / when one exists; other
 * public routes (jump, repeatLogin) always show.
 */
export function GuardedRoute({ kind, Waiting, children }: { kind: 'auth' | 'login' | 'public'; Waiting: FullPageWaiting; children: ReactNode }) {
  const user = useSessionUser();
  const decision = decideRoute({
    requiresAuth: kind === 'auth',
    isLogin: kind === 'login',
    hasToken: Boolean(readCookie(COOKIES.token)),
    validated: user !== null,
  });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'validate') return <ValidateOnce Waiting={Waiting}>{children}</ValidateOnce>;
  return children;
}

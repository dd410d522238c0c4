import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { Flex, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COOKIES } from '@ship-cctv/protocol';
import { readCookie } from '../../../lib/cookies.ts';
import { validToken } from '../api/valid-token.ts';
import { endLocalSession } from '../end-session.ts';
import { LOGIN_PATH, decideRoute } from '../route-guard.ts';
import { sessionStore, useSessionUser } from '../session-store.ts';

export function FullPageSpin({ tip }: { tip: string }) {
  return (
    <Flex vertical align="center" justify="center" gap={16} style={{ minHeight: '100vh' }}>
      <Spin size="large" />
      <span>{tip}</span>
    </Flex>
  );
}

/** Validates the token once per page load, then renders the route; a failure signs out (spec §4). */
function ValidateOnce({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  // A ref, not state: StrictMode runs the effect twice on the same instance, and one check is enough.
  const started = useRef(false);

  useEffect(() => {
    if (user || started.current) return;
    started.current = true;
    validToken().then(
      (valid) => sessionStore.signedIn(valid),
      () => {
        endLocalSession(queryClient);
        void navigate(LOGIN_PATH, { replace: true });
      },
    );
  }, [user, navigate, queryClient]);

  return user ? children : <FullPageSpin tip={t('session.checking')} />;
}

/**
 * Spec §4 guard around a route. `auth` routes need the token cookie; `login` is left for / when
 * one exists; other public routes (jump, repeatLogin) always show.
 */
export function RouteGuard({ kind, children }: { kind: 'auth' | 'login' | 'public'; children: ReactNode }) {
  const user = useSessionUser();
  const decision = decideRoute({
    requiresAuth: kind === 'auth',
    isLogin: kind === 'login',
    hasToken: Boolean(readCookie(COOKIES.token)),
    validated: user !== null,
  });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'validate') return <ValidateOnce>{children}</ValidateOnce>;
  return children;
}

import type { ReactNode } from 'react';
import { GuardedRoute } from '../../features/session/index.ts';
import { FullPageLoading } from './FullPageLoading.tsx';

/**
 * The spec §4 guard of the mobile routes, the desktop's (features/session/components/GuardedRoute.tsx)
 * with the mobile spinner: `auth` routes need the token cookie; `login` is left for / when one exists.
 */
export function MobileRouteGuard({ kind, children }: { kind: 'auth' | 'login'; children: ReactNode }) {
  return <GuardedRoute kind={kind} Waiting={FullPageLoading}>{children}</GuardedRoute>;
}

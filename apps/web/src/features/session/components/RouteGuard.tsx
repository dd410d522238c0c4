import type { ReactNode } from 'react';
import { Flex, Spin } from 'antd';
import { GuardedRoute } from './GuardedRoute.tsx';

export function FullPageSpin({ tip }: { tip: string }) {
  return (
    <Flex vertical align="center" justify="center" gap={16} style={{ minHeight: '100vh' }}>
      <Spin size="large" />
      <span>{tip}</span>
    </Flex>
  );
}

/**
 * Spec §4 guard around a route (features/session/components/GuardedRoute.tsx) with the desktop's
 * spinner. `auth` routes need the token cookie; `login` is left for / when one exists; other public
 * routes (jump, repeatLogin) always show.
 */
export function RouteGuard({ kind, children }: { kind: 'auth' | 'login' | 'public'; children: ReactNode }) {
  return <GuardedRoute kind={kind} Waiting={FullPageSpin}>{children}</GuardedRoute>;
}

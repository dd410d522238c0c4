import { useEffect } from 'react';
import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { LIMITS } from '@ship-cctv/protocol';
import { useHeartbeat } from '../../features/session/index.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { useRuntimeConfig } from '../runtime-config.tsx';
import { AppHeader } from './AppHeader.tsx';
import { ShellStateProvider } from './shell-state.tsx';

/**
 * The signed-in desktop frame: header over the routed screen. Mounting it means a validated
 * session, so it runs the session heartbeat and opens this tab's STOMP connection; sign-out
 * (endLocalSession) closes it.
 */
export function DesktopShell() {
  const { stompPath, heartbeatMs } = useRuntimeConfig();
  useHeartbeat(heartbeatMs);

  useEffect(() => {
    realtime.start(stompPath);
  }, [stompPath]);

  return (
    <ShellStateProvider>
      <Layout style={{ height: '100vh', minWidth: LIMITS.minWidthDesktopPx }}>
        <AppHeader />
        <Outlet />
      </Layout>
    </ShellStateProvider>
  );
}

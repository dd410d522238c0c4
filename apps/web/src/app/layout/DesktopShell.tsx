import { lazy, Suspense, useEffect } from 'react';
import { Flex, Layout, Spin } from 'antd';
import { Outlet } from 'react-router';
import { LIMITS } from '@ship-cctv/protocol';
import { useHeartbeat } from '../../features/session/index.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { useRuntimeConfig } from '../../shared/runtime-config.tsx';
import { ShipExtraProvider, type ShipExtra } from '../../shared/source-tree/index.ts';
import { BudgetNoticesSlot, SHIP_BUDGET_BADGE } from '../budget-slots.tsx';
import { RecorderStorageNoticesSlot } from '../storage-notices-slot.tsx';
import { EventNoticesSlot, ShipEventBadgeSlot } from '../event-slots.tsx';
import { AppHeader } from './AppHeader.tsx';
import { ShellStateProvider } from '../../shared/layout/shell-state.tsx';

// Loaded when first opened: its table and cards (antd Table, Card) are not part of the first screen.
const StatisticsPanel = lazy(() => import('../../features/fleet/index.ts').then((m) => ({ default: m.StatisticsPanel })));

/** After a ship's name in the tree: its unacknowledged events, then its data budget. */
const SHIP_EXTRAS: ShipExtra = function ShipExtras({ ship }) {
  return (
    <>
      <ShipEventBadgeSlot ship={ship} />
      <SHIP_BUDGET_BADGE ship={ship} />
    </>
  );
};

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
    <ShellStateProvider statisticsPanel={StatisticsPanel}>
      <ShipExtraProvider value={SHIP_EXTRAS}>
        <Layout style={{ height: '100vh', minWidth: LIMITS.minWidthDesktopPx }}>
          <AppHeader />
          <BudgetNoticesSlot />
          <RecorderStorageNoticesSlot />
          <EventNoticesSlot />
          {/* Screens are loaded on first visit (routes/lazy-pages.ts): the header stays while one downloads. */}
          <Suspense fallback={<Flex flex={1} align="center" justify="center"><Spin size="large" /></Flex>}>
            <Outlet />
          </Suspense>
        </Layout>
      </ShipExtraProvider>
    </ShellStateProvider>
  );
}

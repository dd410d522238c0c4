import { Suspense, type ReactNode } from 'react';
import { Flex, Layout, theme } from 'antd';
import { useShellState } from './shell-state.tsx';

const SIDEBAR_WIDTH = 320;

/**
 * A page with the collapsible source sidebar on the left (spec §2: /live/index,
 * /live/recordlivevideo) and, over its content, the statistics panel when it is open (the one the
 * shell gave ShellStateProvider).
 */
export function SidebarPage({ sidebar, children, after }: { sidebar: ReactNode; children: ReactNode; after?: ReactNode }) {
  const { token } = theme.useToken();
  const { sidebarCollapsed, statisticsOpen, setStatisticsOpen, StatisticsPanel } = useShellState();
  return (
    <Layout style={{ flex: 1, minHeight: 0 }}>
      <Layout.Sider
        width={SIDEBAR_WIDTH}
        collapsedWidth={0}
        collapsed={sidebarCollapsed}
        trigger={null}
        theme="light"
        style={{ background: token.colorBgContainer, borderRight: `1px solid ${token.colorBorderSecondary}` }}
      >
        {/* Kept mounted when collapsed: the loaded channels and subscriptions survive a toggle. */}
        <div style={{ height: '100%', display: sidebarCollapsed ? 'none' : 'block' }} data-testid="sidebar">
          {sidebar}
        </div>
      </Layout.Sider>
      <Layout.Content style={{ padding: 8, minWidth: 0, display: 'flex' }}>
        <Flex vertical gap={8} style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {statisticsOpen ? (
            <Suspense fallback={null}>
              <StatisticsPanel onClose={() => setStatisticsOpen(false)} />
            </Suspense>
          ) : null}
          <div style={{ flex: 1, minHeight: 0 }}>{children}</div>
        </Flex>
      </Layout.Content>
      {after}
    </Layout>
  );
}

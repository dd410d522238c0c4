import { Flex, Layout, theme } from 'antd';
import { SourceTree, useLivePreviewActions } from '../../features/fleet/components/SourceTree.tsx';
import { StatisticsPanel } from '../../features/fleet/components/StatisticsPanel.tsx';
import { PlayGrid } from '../../features/live/components/PlayGrid.tsx';
import { useShellState } from '../layout/shell-state.tsx';

const SIDEBAR_WIDTH = 320;

/** /live/index (spec §2): source tree on the left, statistics (when open) over the play grid. */
export function LivePreviewPage() {
  const { token } = theme.useToken();
  const { sidebarCollapsed, statisticsOpen, setStatisticsOpen } = useShellState();
  const actions = useLivePreviewActions();
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
          <SourceTree actions={actions} />
        </div>
      </Layout.Sider>
      <Layout.Content style={{ padding: 8, minWidth: 0, display: 'flex' }}>
        <Flex vertical gap={8} style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {statisticsOpen ? <StatisticsPanel onClose={() => setStatisticsOpen(false)} /> : null}
          <div style={{ flex: 1, minHeight: 0 }}>
            <PlayGrid />
          </div>
        </Flex>
      </Layout.Content>
    </Layout>
  );
}

import { useState } from 'react';
import { Empty, Flex, Layout, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useShellState } from '../../../app/layout/shell-state.tsx';
import { StatisticsPanel } from '../../fleet/components/StatisticsPanel.tsx';
import type { PlaybackOptions } from '../options.ts';
import { PlaybackOptionsDialog } from './PlaybackOptionsDialog.tsx';
import { PlaybackPlayer } from './PlaybackPlayer.tsx';
import { PlaybackSourceTree, type PlaybackSource } from './PlaybackSourceTree.tsx';

const SIDEBAR_WIDTH = 320;

/**
 * /live/recordlivevideo (spec §2 ship-end video playback): the source tree on the left; choosing a
 * channel opens the playback options, and the player plays that range from the ship's recorder.
 */
export function ShipPlaybackPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { sidebarCollapsed, statisticsOpen, setStatisticsOpen } = useShellState();
  const [asking, setAsking] = useState<PlaybackSource>();
  const [playing, setPlaying] = useState<{ source: PlaybackSource; options: PlaybackOptions }>();
  // Spec §3 record state: the zone, range and speed chosen last are offered again.
  const [last, setLast] = useState<{ shipId: string; options: PlaybackOptions }>();

  // A template pair belongs to one ship: another ship starts from its own default.
  const initial = asking && last ? (last.shipId === asking.shipId ? last.options : { ...last.options, template: undefined }) : undefined;

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
        <div style={{ height: '100%', display: sidebarCollapsed ? 'none' : 'block' }} data-testid="sidebar">
          <PlaybackSourceTree onOpen={setAsking} />
        </div>
      </Layout.Sider>
      <Layout.Content style={{ padding: 8, minWidth: 0, display: 'flex' }}>
        <Flex vertical gap={8} style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {statisticsOpen ? <StatisticsPanel onClose={() => setStatisticsOpen(false)} /> : null}
          <div style={{ flex: 1, minHeight: 0 }}>
            {playing ? (
              <PlaybackPlayer
                key={playing.source.cameraId}
                source={playing.source}
                options={playing.options}
                onChangeRange={() => setAsking(playing.source)}
                onClose={() => setPlaying(undefined)}
              />
            ) : (
              <Flex align="center" justify="center" style={{ height: '100%' }}>
                <Empty description={t('playback.page.empty')} />
              </Flex>
            )}
          </div>
        </Flex>
      </Layout.Content>
      <PlaybackOptionsDialog
        target={asking}
        initial={initial}
        onCancel={() => setAsking(undefined)}
        onSubmit={(options) => {
          if (!asking) return;
          setLast({ shipId: asking.shipId, options });
          setPlaying({ source: asking, options });
          setAsking(undefined);
        }}
      />
    </Layout>
  );
}

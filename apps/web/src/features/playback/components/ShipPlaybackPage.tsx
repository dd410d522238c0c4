import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { SidebarPage } from '../../../shared/layout/SidebarPage.tsx';
import type { PlaybackOptions } from '../options.ts';
import { isPlayAtState } from '../play-at.ts';
import { PlaybackOptionsDialog } from './PlaybackOptionsDialog.tsx';
import { PlaybackPlayer } from './PlaybackPlayer.tsx';
import { PlaybackSourceTree, type PlaybackSource } from './PlaybackSourceTree.tsx';

/**
 * /live/recordlivevideo (spec §2 ship-end video playback): the source tree on the left; choosing a
 * channel opens the playback options, and the player plays that range from the ship's recorder.
 */
export function ShipPlaybackPage() {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<PlaybackSource>();
  const [playing, setPlaying] = useState<{ source: PlaybackSource; options: PlaybackOptions }>();
  // Spec §3 record state: the zone, range and speed chosen last are offered again.
  const [last, setLast] = useState<{ shipId: string; options: PlaybackOptions }>();
  const location = useLocation();
  const navigate = useNavigate();

  // Another screen asked for a camera at a time (an event's moment): play it at once, once.
  const carried: unknown = location.state;
  useEffect(() => {
    if (!isPlayAtState(carried)) return;
    const { source, options } = carried.playAt;
    setLast({ shipId: source.shipId, options });
    setPlaying({ source, options });
    void navigate(location.pathname, { replace: true, state: null });
  }, [carried, navigate, location.pathname]);

  // A template pair belongs to one ship: another ship starts from its own default.
  const initial = asking && last ? (last.shipId === asking.shipId ? last.options : { ...last.options, template: undefined }) : undefined;

  return (
    <SidebarPage
      sidebar={<PlaybackSourceTree onOpen={setAsking} />}
      after={
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
      }
    >
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
    </SidebarPage>
  );
}

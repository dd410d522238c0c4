import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@ship-cctv/protocol';
import type { PlayableSource } from '../../shared/playable-source.ts';
import type { PlaybackOptions } from '../../features/playback/index.ts';
import { ChannelActions } from '../components/ChannelActions.tsx';
import { LiveOptionsDialog } from '../components/LiveOptionsDialog.tsx';
import { LiveVideo } from '../components/LiveVideo.tsx';
import { PlaybackOptionsDialog } from '../components/PlaybackOptionsDialog.tsx';
import { PlaybackVideo } from '../components/PlaybackVideo.tsx';
import { SourceList } from '../components/SourceList.tsx';
import { TitleBar } from '../components/TitleBar.tsx';
import { useOrganisationScope } from '../hooks/useOrganisationScope.ts';
import { useOrientation } from '../orientation.ts';
import { isOpenOptionsState, isPlayNowState, type OpenOptionsState, type PlayMode, type ScreenStep } from '../play-session.ts';
import { MOBILE_HOME, MOBILE_PLAYBACK } from '../routes.ts';
import styles from '../mobile.module.css';

const ROUTE_OF: Record<PlayMode, string> = { live: MOBILE_HOME, shipPlayback: MOBILE_PLAYBACK };

/** What the video area plays. */
type Playing =
  | { mode: 'live'; source: PlayableSource; templateId: number | undefined }
  | { mode: 'shipPlayback'; source: PlayableSource; options: PlaybackOptions };

/**
 * The mobile screen of spec §2: title bar, the video area (in portrait three quarters as high as
 * it is wide; in landscape, while something plays, the whole screen), and the source list. A long
 * press on a channel offers live video or ship-end playback; each opens its options dialog on its
 * own tab (/index live, /remoteLive ship-end playback), and a tap opens this tab's at once.
 */
export function MobileScreen({ mode }: { mode: PlayMode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const orientation = useOrientation();
  const [step, setStep] = useState<ScreenStep>({ kind: 'idle' });
  const [playing, setPlaying] = useState<Playing>();

  // A choice made on the other tab arrives in the route's state: open its dialog here, once.
  const carried: unknown = location.state;
  useEffect(() => {
    if (isPlayNowState(carried)) {
      // Another screen's "play this moment": plays at once, on the playback tab.
      if (mode === 'shipPlayback') setPlaying({ mode: 'shipPlayback', source: carried.playNow.source, options: carried.playNow.options });
    } else if (isOpenOptionsState(carried)) setStep({ kind: 'options', ...carried.openOptions });
    else return;
    void navigate(location.pathname, { replace: true, state: null });
  }, [carried, navigate, location.pathname, mode]);

  const choose = (chosen: PlayMode, source: PlayableSource) => {
    if (chosen === mode) {
      setStep({ kind: 'options', mode: chosen, source });
      return;
    }
    setStep({ kind: 'idle' });
    const state: OpenOptionsState = { openOptions: { mode: chosen, source } };
    void navigate(ROUTE_OF[chosen], { state });
  };

  const fill = orientation === 'landscape' && playing !== undefined;
  const close = () => setStep({ kind: 'idle' });
  // Another organisation picked: the old one's video stops and its dialogs close.
  useOrganisationScope(playing?.source, useCallback(() => setPlaying(undefined), []));
  useOrganisationScope(step.kind === 'idle' ? undefined : step.source, useCallback(() => setStep({ kind: 'idle' }), []));

  return (
    <div className={styles.screen} style={{ minWidth: LIMITS.minWidthMobilePx }} data-orientation={orientation} data-layout={fill ? 'fill' : orientation}>
      <TitleBar />
      <section className={fill ? styles.videoAreaFill : styles.videoArea} aria-label={mode === 'live' ? t('mobile.tabs.live') : t('mobile.tabs.playback')} data-testid="video-area">
        {playing?.mode === 'live' ? (
          <LiveVideo key={`${playing.source.cameraId}:${playing.templateId ?? ''}`} source={playing.source} templateId={playing.templateId} onClose={() => setPlaying(undefined)} />
        ) : playing?.mode === 'shipPlayback' ? (
          <PlaybackVideo
            key={playing.source.cameraId}
            source={playing.source}
            options={playing.options}
            onChangeRange={() => setStep({ kind: 'options', mode: 'shipPlayback', source: playing.source })}
            onClose={() => setPlaying(undefined)}
          />
        ) : (
          <div className={styles.videoEmpty}>{t('mobile.video.empty')}</div>
        )}
      </section>
      <SourceList onLongPress={(source) => setStep({ kind: 'choose', source })} onTap={(source) => setStep({ kind: 'options', mode, source })} />

      <ChannelActions source={step.kind === 'choose' ? step.source : undefined} onChoose={choose} onClose={() => setStep((s) => (s.kind === 'choose' ? { kind: 'idle' } : s))} />
      {step.kind === 'options' && step.mode === 'live' ? (
        <LiveOptionsDialog
          key={step.source.cameraId}
          source={step.source}
          onClose={close}
          onPlay={(templateId) => {
            setPlaying({ mode: 'live', source: step.source, templateId });
            close();
          }}
        />
      ) : null}
      {step.kind === 'options' && step.mode === 'shipPlayback' ? (
        <PlaybackOptionsDialog
          key={step.source.cameraId}
          source={step.source}
          // Changing the range of the playback on screen starts from its options.
          initial={playing?.mode === 'shipPlayback' && playing.source.cameraId === step.source.cameraId ? playing.options : undefined}
          onClose={close}
          onPlay={(options) => {
            setPlaying({ mode: 'shipPlayback', source: step.source, options });
            close();
          }}
        />
      ) : null}
    </div>
  );
}

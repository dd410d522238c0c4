import type { TFunction } from 'i18next';
import { PlayOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { PlaybackSpeed } from '@ship-cctv/protocol';
import type { PlayableSource } from '../../shared/playable-source.ts';
import { usePlaybackScreen } from '../../features/playback/index.ts';
import { formatInTimeZone, isPlaybackSpeed, SPEED_CHOICES, type PlaybackOptions } from '../../features/playback/index.ts';
import { seekValue, type PlaybackOverlay } from '../../features/playback/index.ts';
import { VideoFrame, type FrameOverlay } from './VideoFrame.tsx';
import styles from '../mobile.module.css';

export interface PlaybackVideoProps {
  source: PlayableSource;
  options: PlaybackOptions;
  onChangeRange(): void;
  onClose(): void;
}

/**
 * Ship-end playback on the phone (spec §2 /remoteLive): the desktop's playback player hook and
 * view rules, with touch controls under the picture — pause or resume, the recorded time on
 * screen in the chosen zone, and the speed.
 */
export function PlaybackVideo({ source, options, onChangeRange, onClose }: PlaybackVideoProps) {
  const { t } = useTranslation();
  const { videoRef, playback, view, position, zone, overlay, banner, shown, clickToPlay } = usePlaybackScreen(source, options);
  const actions = {
    replay: { label: t('playback.player.replay'), run: playback.replay },
    changeRange: { label: t('playback.player.changeRange'), run: onChangeRange },
    continue: { label: t('playerCell.continue'), run: playback.continueWatching },
    clickToPlay: { label: t('playerCell.clickToPlay'), run: clickToPlay },
  };

  const paused = position?.paused ?? false;
  const footer = (
    <>
      <button
        type="button"
        className={styles.iconButton}
        aria-label={paused ? t('playback.player.resume') : t('playback.player.pause')}
        disabled={view.state !== 'playing'}
        onClick={paused ? playback.resume : playback.pause}
      >
        {paused ? <PlayOutline /> : <PauseIcon />}
      </button>
      <span className={styles.recordedTime} aria-label={t('playback.player.recordedTime')} data-testid="recorded-time">
        {shown !== undefined && zone ? formatInTimeZone(seekValue(shown, options), zone) : '—'}
      </span>
      <select
        className={styles.speedSelect}
        aria-label={t('playback.player.speed')}
        value={position?.speed ?? options.speed}
        disabled={view.state !== 'playing'}
        onChange={(e) => {
          const speed = Number(e.target.value);
          if (isPlaybackSpeed(speed)) playback.setSpeed(speed as PlaybackSpeed);
        }}
      >
        {SPEED_CHOICES.map((speed) => (
          <option key={speed} value={speed}>
            {t('playback.options.speedOption', { speed })}
          </option>
        ))}
      </select>
    </>
  );

  return (
    <VideoFrame
      source={source}
      videoRef={videoRef}
      state={view.state}
      overlay={frameOverlay(overlay, t, actions)}
      banner={banner}
      onClose={onClose}
      onContinue={playback.continueWatching}
      footer={footer}
    />
  );
}

/** Two bars (antd-mobile-icons has no pause icon). */
function PauseIcon() {
  return (
    <svg width="1em" height="1em" viewBox="0 0 48 48" aria-hidden="true" fill="currentColor">
      <rect x="12" y="9" width="8" height="30" rx="2" />
      <rect x="28" y="9" width="8" height="30" rx="2" />
    </svg>
  );
}

type Translate = TFunction<'translation', undefined>;

/** The playback view's overlay (features/playback/playback-view.ts) in words. */
function frameOverlay(overlay: PlaybackOverlay, t: Translate, actions: Record<'replay' | 'changeRange' | 'continue' | 'clickToPlay', { label: string; run(): void }>): FrameOverlay {
  if (overlay.kind === 'none') return overlay;
  if (overlay.kind === 'busy') return { kind: 'busy', text: t(overlay.text, { seconds: overlay.seconds ?? 0 }) };
  return {
    kind: 'message',
    tone: overlay.tone,
    text: overlay.text === 'playerCell.clickToPlay' ? undefined : t(overlay.text),
    ...(overlay.hint ? { hint: t(overlay.hint) } : {}),
    ...(overlay.action ? { action: actions[overlay.action] } : {}),
  };
}

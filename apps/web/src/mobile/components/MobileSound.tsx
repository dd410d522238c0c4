import type { RefObject } from 'react';
import { Slider } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { LivePlayer } from '@ship-cctv/player';
import { SoundIcon, useCellSound } from '../../shared/player-cell/index.ts';
import styles from '../mobile.module.css';

/** The phone's mute button (a 44 px target) and, unmuted, a volume slider beside it; starts muted. */
export function MobileSound({ videoRef, player }: { videoRef: RefObject<HTMLVideoElement | null>; player: LivePlayer | undefined }) {
  const { t } = useTranslation();
  const { muted, volume, toggle, changeVolume } = useCellSound(videoRef, player);
  const label = muted ? t('playerCell.unmute') : t('playerCell.mute');
  return (
    <span className={styles.frameSound} data-muted={String(muted)}>
      {muted ? null : (
        <Slider
          className={styles.frameVolume}
          min={0}
          max={100}
          value={Math.round(volume * 100)}
          onChange={(v) => changeVolume((Array.isArray(v) ? (v[0] ?? 0) : v) / 100)}
          aria-label={t('playerCell.volume')}
        />
      )}
      <button type="button" className={styles.iconButton} aria-label={label} aria-pressed={!muted} onClick={toggle}>
        <SoundIcon muted={muted} />
      </button>
    </span>
  );
}

import { type RefObject, useCallback } from 'react';
import { Button, Slider, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MsePlayer } from '@ship-cctv/player';
import { SoundIcon } from './icons.tsx';
import { useCellSound } from './useCellSound.ts';
import styles from './PlayerCell.module.css';

/**
 * Mute/unmute and volume of a cell whose stream has sound (the cell shows it only then). The cell
 * starts muted; unmuting is the operator's gesture the browser needs to play sound. While unmuted
 * a small volume slider sits next to the button (touch-sized on phones); the volume is kept for
 * the session (sound.ts).
 */
export function SoundControl({ videoRef, player, getPopupContainer }: { videoRef: RefObject<HTMLVideoElement | null>; player: MsePlayer | undefined; getPopupContainer(): HTMLElement }) {
  const { t } = useTranslation();
  const { muted, volume, toggle, changeVolume } = useCellSound(videoRef, player);
  const change = useCallback((v: number) => changeVolume(v / 100), [changeVolume]);

  const label = muted ? t('playerCell.unmute') : t('playerCell.mute');
  return (
    <span className={styles.sound} data-muted={String(muted)}>
      <Tooltip title={label} getPopupContainer={getPopupContainer}>
        <Button size="small" type="text" aria-label={label} aria-pressed={!muted} icon={<SoundIcon muted={muted} />} onClick={toggle} />
      </Tooltip>
      {muted ? null : (
        <Slider
          className={styles.volume}
          min={0}
          max={100}
          value={Math.round(volume * 100)}
          onChange={change}
          tooltip={{ formatter: (v) => `${v ?? 0} %`, getPopupContainer }}
          aria-label={t('playerCell.volume')}
        />
      )}
    </span>
  );
}

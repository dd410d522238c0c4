import { lazy, type RefObject, Suspense, useCallback } from 'react';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LivePlayer } from '@ship-cctv/player';
import { SoundIcon } from './icons.tsx';
import { useCellSound } from './useCellSound.ts';
import styles from './PlayerCell.module.css';

// Cells start muted, so antd's Slider is loaded on the first unmute, not with the live preview (issue 17 budget).
const VolumeSlider = lazy(() => import('./VolumeSlider.tsx').then((m) => ({ default: m.VolumeSlider })));

/**
 * Mute/unmute and volume of a cell whose stream has sound (the cell shows it only then). The cell
 * starts muted; unmuting is the operator's gesture the browser needs to play sound. While unmuted
 * a small volume slider sits next to the button (touch-sized on phones); the volume is kept for
 * the session (sound.ts).
 */
export function SoundControl({ videoRef, player, getPopupContainer }: { videoRef: RefObject<HTMLVideoElement | null>; player: LivePlayer | undefined; getPopupContainer(): HTMLElement }) {
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
        <Suspense fallback={null}>
          <VolumeSlider volume={volume} onChange={change} getPopupContainer={getPopupContainer} />
        </Suspense>
      )}
    </span>
  );
}

import { Slider } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './PlayerCell.module.css';

/** The volume slider of an unmuted cell (SoundControl loads it lazily: cells start muted). */
export function VolumeSlider({ volume, onChange, getPopupContainer }: { volume: number; onChange(percent: number): void; getPopupContainer(): HTMLElement }) {
  const { t } = useTranslation();
  return (
    <Slider
      className={styles.volume}
      min={0}
      max={100}
      value={Math.round(volume * 100)}
      onChange={onChange}
      tooltip={{ formatter: (v) => `${v ?? 0} %`, getPopupContainer }}
      aria-label={t('playerCell.volume')}
    />
  );
}

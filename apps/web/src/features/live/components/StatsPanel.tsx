import type { PlayerStats } from '@ship-cctv/player';
import { useTranslation } from 'react-i18next';
import styles from './PlayerCell.module.css';

/** Latency, bitrate, frame rate and the ship's link, for an operator judging a picture. */
export function StatsPanel({ stats, linkType }: { stats: PlayerStats | undefined; linkType: string | undefined }) {
  const { t } = useTranslation();
  const dash = '–';
  return (
    <dl className={styles.stats} aria-label={t('live.cell.stats')}>
      <dt>{t('live.stats.latency')}</dt>
      <dd>{stats?.latencyMs === undefined ? dash : `${stats.latencyMs} ms`}</dd>
      <dt>{t('live.stats.bitrate')}</dt>
      <dd>{stats ? `${Math.round(stats.bitrateKbps)} kbit/s` : dash}</dd>
      <dt>{t('live.stats.fps')}</dt>
      <dd>{stats ? `${Math.round(stats.fps)} fps` : dash}</dd>
      <dt>{t('live.stats.firstFrame')}</dt>
      <dd>{stats?.firstFrameMs === undefined ? dash : `${stats.firstFrameMs} ms`}</dd>
      <dt>{t('live.stats.resolution')}</dt>
      <dd>{stats?.width && stats.height ? `${stats.width}×${stats.height}` : dash}</dd>
      <dt>{t('live.stats.link')}</dt>
      <dd>{linkType ?? t('live.stats.linkUnknown')}</dd>
    </dl>
  );
}

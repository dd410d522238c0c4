import type { PlayerStats } from '@ship-cctv/player';
import { useTranslation } from 'react-i18next';
import styles from './PlayerCell.module.css';

/** Latency (how old the picture is), buffer, bitrate, frame rate and the ship's link, for an operator judging a picture. */
export function StatsPanel({ stats, linkType }: { stats: PlayerStats | undefined; linkType: string | undefined }) {
  const { t } = useTranslation();
  const dash = '–';
  return (
    <dl className={styles.stats} aria-label={t('playerCell.stats')}>
      <dt title={t('playerCell.info.latencyHint')}>{t('playerCell.info.latency')}</dt>
      <dd>{stats?.pictureAgeMs === undefined ? dash : `${stats.pictureAgeMs} ms`}</dd>
      <dt>{t('playerCell.info.buffer')}</dt>
      <dd>{stats?.latencyMs === undefined ? dash : `${stats.latencyMs} ms`}</dd>
      <dt>{t('playerCell.info.bitrate')}</dt>
      <dd>{stats ? `${Math.round(stats.bitrateKbps)} kbit/s` : dash}</dd>
      {stats && stats.audioKbps > 0 ? (
        <>
          <dt>{t('playerCell.info.audio')}</dt>
          <dd>{`${stats.audioKbps.toFixed(1)} kbit/s`}</dd>
        </>
      ) : null}
      <dt>{t('playerCell.info.fps')}</dt>
      <dd>{stats ? `${Math.round(stats.fps)} fps` : dash}</dd>
      <dt>{t('playerCell.info.firstFrame')}</dt>
      <dd>{stats?.firstFrameMs === undefined ? dash : `${stats.firstFrameMs} ms`}</dd>
      <dt>{t('playerCell.info.resolution')}</dt>
      <dd>{stats?.width && stats.height ? `${stats.width}×${stats.height}` : dash}</dd>
      <dt>{t('playerCell.info.link')}</dt>
      <dd>{linkType ?? t('playerCell.info.linkUnknown')}</dd>
    </dl>
  );
}

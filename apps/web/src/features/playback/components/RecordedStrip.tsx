import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GAP_CAUSES, type VodQueryResult } from '@ship-cctv/protocol';
import { GapBand, GapLegend, causesIn, gapFractions } from '../../../shared/recording-gaps/index.ts';
import { spanBands } from '../playback-view.ts';
import styles from './PlaybackPlayer.module.css';

export interface RecordedStripProps {
  /** The ship's answer (undefined while it is asked). */
  result: VodQueryResult | undefined;
  failed: boolean;
  range: { start: number; end: number };
  formatTime(epoch: number): string;
}

/**
 * The strip under the ship-end playback's seek bar: what the ship recorder holds, and the times it
 * holds nothing hatched by the ship's cause (tooltip, legend). A shore that answers without gaps
 * shows the spans alone.
 */
export function RecordedStrip({ result, failed, range, formatTime }: RecordedStripProps) {
  const { t } = useTranslation();
  const bands = result ? spanBands(result.spans, range) : [];
  const gaps = result?.gaps ?? [];
  return (
    <>
      <div className={styles.spans} title={t('playback.player.recorded')} data-testid="recorded-spans">
        {bands.map((band) => (
          <span key={band.from} className={styles.span} style={{ left: `${band.from * 100}%`, width: `${(band.to - band.from) * 100}%` }} />
        ))}
        {gapFractions(gaps, range).map(({ from, to, gap }) => (
          <GapBand key={`gap-${gap.start}`} gap={gap} left={`${from * 100}%`} width={`${(to - from) * 100}%`} top={0} bottom={0} formatTime={formatTime} />
        ))}
      </div>
      <GapLegend causes={causesIn(gaps, GAP_CAUSES)} />
      {failed ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('playback.player.spansUnavailable')}
        </Typography.Text>
      ) : result && bands.length === 0 ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('playback.player.spansNone')}
        </Typography.Text>
      ) : null}
    </>
  );
}

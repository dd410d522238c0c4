import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RecordingGap } from '@ship-cctv/protocol';
import { gapBackground } from './gap-style.ts';

export interface GapBandProps {
  gap: RecordingGap;
  /** Position inside its track, in CSS (pixels or percent). */
  left: string | number;
  width: string | number;
  top?: number;
  bottom?: number;
  /** Shows a time in the page's zone. */
  formatTime(epoch: number): string;
}

/** One gap on a timeline: hatched in its cause's colour, its cause and time in a tooltip and for screen readers. */
export function GapBand({ gap, left, width, top = 8, bottom = 8, formatTime }: GapBandProps) {
  const { t } = useTranslation();
  const label = t('recordingGaps.tooltip', { cause: t(`recordingGaps.cause.${gap.cause}`), from: formatTime(gap.start), to: formatTime(gap.end) });
  return (
    <Tooltip title={<span>{label}<br />{t(`recordingGaps.detail.${gap.cause}`)}</span>}>
      <div
        role="img"
        aria-label={label}
        data-testid={`gap-${gap.cause}`}
        data-gap-start={gap.start}
        data-gap-end={gap.end}
        style={{ position: 'absolute', left, width, top, bottom, minWidth: 2, background: gapBackground(gap.cause), opacity: 0.8, borderRadius: 2 }}
      />
    </Tooltip>
  );
}

import { Flex, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GapCause } from '@ship-cctv/protocol';
import { gapBackground } from './gap-style.ts';

/** The causes of the gaps on screen, each with a swatch; its tooltip says what the cause means. */
export function GapLegend({ causes }: { causes: readonly GapCause[] }) {
  const { t } = useTranslation();
  if (causes.length === 0) return null;
  return (
    <Flex gap={12} wrap align="center" role="list" aria-label={t('recordingGaps.legend')} data-testid="gap-legend">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('recordingGaps.legend')}
      </Typography.Text>
      {causes.map((cause) => (
        <Tooltip key={cause} title={t(`recordingGaps.detail.${cause}`)}>
          <Flex role="listitem" align="center" gap={4} data-testid={`legend-${cause}`} style={{ fontSize: 12 }}>
            <span aria-hidden style={{ display: 'inline-block', width: 14, height: 10, background: gapBackground(cause), border: '1px solid rgba(0,0,0,0.15)' }} />
            {t(`recordingGaps.cause.${cause}`)}
          </Flex>
        </Tooltip>
      ))}
    </Flex>
  );
}

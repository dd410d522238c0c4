import { Tag, Tooltip } from 'antd';
import { useBudgetTranslation as useTranslation } from '../texts.ts';
import type { Ship } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { useBudgetStatistics } from '../api/data-budget.ts';
import { levelColour, percentOf, tightestPurpose } from '../budget-figures.ts';

/**
 * A ship's data use in the source tree: today's and this month's share of the cap nearest to being
 * used up (hover for the figures). Nothing for a ship without caps.
 */
export function ShipBudgetBadge({ ship }: { ship: Ship }) {
  const { t, i18n } = useTranslation();
  const stats = useBudgetStatistics(ship.orgId);
  const use = stats.data?.ships.find((s) => s.shipId === ship.id);
  const tight = use ? tightestPurpose(use.use) : undefined;
  if (!use || !tight) return null;
  const u = tight.use;
  const pct = (bytes: number, cap: number | null) => {
    const p = percentOf(bytes, cap);
    return p === null ? '—' : `${p}%`;
  };
  const size = (bytes: number | null) => (bytes === null ? t('budgets.noCap') : formatBytes(bytes, i18n.language));
  const title = t('budgets.badgeTitle', {
    purpose: t(`budgets.purpose.${tight.purpose}`),
    dayUsed: size(u.dayBytes),
    dayCap: size(u.dayCapBytes),
    monthUsed: size(u.monthBytes),
    monthCap: size(u.monthCapBytes),
  });
  return (
    <Tooltip title={use.live === 'normal' ? title : `${title} · ${t(`budgets.state.${use.live}`, { until: '' })}`}>
      <Tag color={levelColour(u.level)} aria-label={title} data-budget-ship={ship.id} data-budget-level={u.level} style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4 }}>
        {t('budgets.badge', { day: pct(u.dayBytes, u.dayCapBytes), month: pct(u.monthBytes, u.monthCapBytes) })}
      </Tag>
    </Tooltip>
  );
}

import { Badge, Tooltip } from 'antd';
import type { Ship } from '@ship-cctv/protocol';
import { useUnacknowledgedCounts } from '../api/events.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';

/** A ship's unacknowledged events, after its name in the source tree; nothing when there are none. */
export function ShipEventBadge({ ship }: { ship: Ship }) {
  const { t } = useTranslation();
  const counts = useUnacknowledgedCounts();
  const count = counts.data?.ships.find((s) => s.shipId === ship.id)?.count ?? 0;
  if (count <= 0) return null;
  const title = t('events.badge', { count });
  return (
    <Tooltip title={title}>
      <Badge count={count} overflowCount={99} size="small" aria-label={title} data-event-badge={ship.id} data-event-count={count} />
    </Tooltip>
  );
}

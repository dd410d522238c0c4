import { Badge, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import type { Ship } from '@ship-cctv/protocol';
import { useUnacknowledgedCounts } from '../api/events.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';

/** A ship's unacknowledged events, after its name in the source tree; nothing when there are none. */
export function ShipEventBadge({ ship }: { ship: Ship }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const counts = useUnacknowledgedCounts();
  const count = counts.data?.ships.find((s) => s.shipId === ship.id)?.count ?? 0;
  if (count <= 0) return null;
  const title = t('events.badge', { count });
  return (
    <Tooltip title={title}>
      {/* A click opens the ship's events (the tree row does not take it as a selection). */}
      <a
        href={`${import.meta.env.BASE_URL.replace(/\/+$/, '')}/events?shipId=${encodeURIComponent(ship.id)}`}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          void navigate({ pathname: '/events', search: `?shipId=${encodeURIComponent(ship.id)}` });
        }}
        aria-label={title}
        data-event-badge={ship.id}
        data-event-count={count}
      >
        <Badge count={count} overflowCount={99} size="small" />
      </a>
    </Tooltip>
  );
}


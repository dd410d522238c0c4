import { useMemo } from 'react';
import { Alert, Button, Card, Col, Divider, Row, Statistic, Typography } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCameraStatuses } from '../api/camera-status.ts';
import { INITIAL_LINK, useShipLinks } from '../../../lib/realtime/index.ts';
import { useShipsAndChannels } from '../api/ships-and-channels.ts';
import { useOrganisations } from '../../../shared/source-tree/selection.ts';
import { countFleet } from '../statistics.ts';
import { shipsOf } from '../../../shared/source-tree/tree.ts';
import { BudgetTable } from '../../budgets/index.ts';
import { LinkUsage } from './LinkUsage.tsx';

/**
 * The static-info panel (spec §3 "static-info closed"): online and offline ships and channels of
 * the selected organisation, and what the open cells cost the ships' links. Ships are online or
 * not by the same STOMP state the source tree shows, so the two never disagree; the channels of the
 * online ships are asked for at once when that set changes, and polled while the panel is open.
 */
export function StatisticsPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { selected } = useOrganisations();
  const node = selected?.node;
  const orgShips = useMemo(() => (node ? shipsOf(node) : []), [node]);
  const totals = useShipsAndChannels(selected?.id);
  const links = useShipLinks(useMemo(() => orgShips.map((ship) => ship.name), [orgShips]));
  const ships = useMemo(() => orgShips.map((ship) => ({ shipId: ship.id, online: (links.get(ship.name)?.linkType ?? INITIAL_LINK) !== INITIAL_LINK })), [orgShips, links]);
  const onlineShipIds = useMemo(() => ships.filter((ship) => ship.online).map((ship) => ship.shipId), [ships]);
  const cameras = useCameraStatuses(onlineShipIds);
  const cameraEntries = cameras.flatMap((query) => query.data ?? []);

  let body;
  if (!selected) body = <Typography.Text type="secondary">{t('fleet.stats.chooseOrganisation')}</Typography.Text>;
  else if (totals.isError) body = <Alert type="error" showIcon title={t('fleet.stats.loadFailed')} />;
  else {
    const counts = totals.data ? countFleet(totals.data, ships, cameraEntries) : undefined;
    const loading = !counts;
    body = (
      <Row gutter={16}>
        <Col span={6}>
          <Statistic loading={loading} title={`${t('fleet.stats.ships')} · ${t('fleet.stats.online')}`} value={counts?.shipsOnline ?? 0} styles={{ content: { color: '#389e0d' } }} />
        </Col>
        <Col span={6}>
          <Statistic loading={loading} title={`${t('fleet.stats.ships')} · ${t('fleet.stats.offline')}`} value={counts?.shipsOffline ?? 0} />
        </Col>
        <Col span={6}>
          <Statistic loading={loading} title={`${t('fleet.stats.channels')} · ${t('fleet.stats.online')}`} value={counts?.channelsOnline ?? 0} styles={{ content: { color: '#389e0d' } }} />
        </Col>
        <Col span={6}>
          <Statistic loading={loading} title={`${t('fleet.stats.channels')} · ${t('fleet.stats.offline')}`} value={counts?.channelsOffline ?? 0} />
        </Col>
      </Row>
    );
  }

  return (
    <Card
      size="small"
      title={t('fleet.stats.title')}
      aria-label={t('fleet.stats.title')}
      extra={<Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('fleet.stats.close')} onClick={onClose} />}
    >
      {body}
      <Divider size="small" />
      <LinkUsage />
      {selected ? (
        <>
          <Divider size="small" />
          <BudgetTable org={selected} />
        </>
      ) : null}
    </Card>
  );
}

import { useMemo, type HTMLAttributes } from 'react';
import { Alert, Flex, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePlaylist } from '../../live/index.ts';
import { useLinkBytes } from '../api/link-bytes.ts';
import { formatBytes, formatKbps, openShips, shipIdsByOrg, uplinkUsage, type ShipUplink } from '../link-usage.ts';

/**
 * What the open cells cost the ships' satellite links: per ship, the uplink bytes of video (live +
 * playback) and their rate now. Mounted only inside the open statistics panel, so its polling
 * stops when the panel closes.
 */
export function LinkUsage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { gridSize, playlist } = usePlaylist();
  const ships = useMemo(() => openShips(playlist.slice(0, gridSize)), [playlist, gridSize]);
  const queries = useLinkBytes(useMemo(() => shipIdsByOrg(ships), [ships]));
  const answered = queries.flatMap((query) => query.data?.ships ?? []);
  const usage = uplinkUsage(answered, ships);
  const windowSeconds = queries.find((query) => query.data)?.data?.rateWindowSeconds ?? 10;
  const loading = queries.some((query) => query.isPending);
  const failed = queries.some((query) => query.isError && !query.data);

  const rate = (kbps: number | null) => (kbps === null ? <Typography.Text type="secondary">{t('fleet.stats.measuring')}</Typography.Text> : formatKbps(kbps, locale));

  let body;
  if (ships.length === 0) body = <Typography.Text type="secondary">{t('fleet.stats.noOpenCells')}</Typography.Text>;
  else if (failed) body = <Alert type="error" showIcon title={t('fleet.stats.linksFailed')} />;
  else {
    body = (
      <Table<ShipUplink>
        size="small"
        rowKey="shipId"
        pagination={false}
        loading={loading}
        dataSource={usage.ships}
        onRow={(row) => ({ 'data-uplink-ship': row.shipId, 'data-bytes': row.bytes }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            key: 'ship',
            title: t('fleet.stats.ship'),
            render: (_, row) => (
              <Flex gap={6} align="center">
                <span>{row.name}</span>
                {row.connected ? null : <Tag>{t('fleet.stats.notConnected')}</Tag>}
              </Flex>
            ),
          },
          { key: 'bytes', title: t('fleet.stats.uplinkBytes'), align: 'right', render: (_, row) => formatBytes(row.bytes, locale) },
          { key: 'rate', title: t('fleet.stats.uplinkRate'), align: 'right', render: (_, row) => rate(row.kbps) },
        ]}
        summary={() =>
          usage.ships.length > 1 ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>{t('fleet.stats.total')}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <Typography.Text strong>{formatBytes(usage.totalBytes, locale)}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                <Typography.Text strong>{rate(usage.totalKbps)}</Typography.Text>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
    );
  }

  return (
    <Flex vertical gap={4} role="group" aria-label={t('fleet.stats.links')} data-uplink-total={usage.totalBytes}>
      <Typography.Text strong>{t('fleet.stats.links')}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('fleet.stats.linksHint', { seconds: windowSeconds })}
      </Typography.Text>
      {body}
    </Flex>
  );
}

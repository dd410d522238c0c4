import { useMemo, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { Button, DatePicker, Flex, Layout, Select, Table, Typography, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PATHS, type RecordQueryFilter, type RecordingSummary } from '@ship-cctv/protocol';
import { shorePlaybackLabel } from '../../../shared/shore-playback-label.ts';
import { channelsQuery } from '../../../shared/source-tree/index.ts';
import { useOrganisations } from '../../../shared/source-tree/index.ts';
import { shipDisplayName, shipsOf } from '../../../shared/source-tree/index.ts';
import { usePendingBackfill } from '../api/backfill.ts';
import { useRecordings } from '../api/recordings.ts';
import { formatBytes, formatDuration, formatTime } from '../format.ts';
import { type TimeWindow, centreOn, timelineRows } from '../timeline.ts';
import { BackfillSwitches } from './BackfillSwitches.tsx';
import { ClipExport } from './ClipExport.tsx';
import { RecordingTimeline } from './RecordingTimeline.tsx';
import { ShorePlayer } from './ShorePlayer.tsx';
import { usePageLinks } from '../../../shared/pagination/page-links.tsx';

const PAGE_SIZE = 50;
const DAY = 86_400_000;

interface Filter {
  shipId: string | undefined;
  cameraId: string | undefined;
  start: number;
  end: number;
}

/**
 * /record/video (spec §2 shore video playback): what the shore recorder holds — recordings listed
 * by ship, channel and time (default the last 24 hours), their spans per channel on a timeline,
 * a player with speeds 1–16×, and clip export.
 */
/** A header cell kept on one line. */
const oneLineHeader = () => ({ style: { whiteSpace: 'nowrap' as const } });

export function ShorePlaybackPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { orgs, selected } = useOrganisations();
  const [draft, setDraft] = useState<Filter>(() => {
    const end = Date.now();
    return { shipId: undefined, cameraId: undefined, start: end - DAY, end };
  });
  const [filter, setFilter] = useState<Filter>(draft);
  const [page, setPage] = useState(1);
  const pageLinks = usePageLinks();
  const [playing, setPlaying] = useState<{ recording: RecordingSummary; at: number; seq: number }>();
  const [shownTime, setShownTime] = useState<number>();
  const [window, setWindow] = useState<TimeWindow>({ start: filter.start, end: filter.end });

  const ships = useMemo(() => {
    const roots = selected ? [selected.node] : orgs.filter((o) => o.depth === 0).map((o) => o.node);
    return roots.flatMap(shipsOf);
  }, [orgs, selected]);
  const shipName = (shipId: string) => {
    const ship = ships.find((s) => s.id === shipId);
    return ship ? shipDisplayName(ship) : shipId;
  };

  const query: RecordQueryFilter = {
    ...(selected ? { orgId: selected.id } : {}),
    ...(filter.shipId ? { shipId: filter.shipId } : {}),
    ...(filter.cameraId ? { cameraId: filter.cameraId } : {}),
    start: filter.start,
    end: filter.end,
  };
  const recordings = useRecordings(query, page, PAGE_SIZE);
  const records = useMemo(() => recordings.data?.records ?? [], [recordings.data]);

  // Channel names of every ship in the list (and of the ship being filtered).
  const shipIds = [...new Set([...records.map((r) => r.shipId), ...(recordings.data?.gaps ?? []).map((g) => g.shipId), ...(draft.shipId ? [draft.shipId] : [])])];
  const channelLists = useQueries({ queries: shipIds.map((id) => channelsQuery(id)) });
  const cameraNames = new Map<string, string>();
  for (const list of channelLists) {
    for (const channel of list.data ?? []) {
      for (const camera of channel.cameras) cameraNames.set(camera.id, channel.cameras.length > 1 ? `${channel.name} · ${camera.name}` : channel.name);
    }
  }
  const cameraLabel = (cameraId: string) => {
    const shipId = records.find((r) => r.cameraId === cameraId)?.shipId ?? (recordings.data?.gaps ?? []).find((g) => g.cameraId === cameraId)?.shipId;
    const name = cameraNames.get(cameraId) ?? cameraId;
    return shipId ? `${shipName(shipId)} · ${name}` : name;
  };
  const draftChannels = draft.shipId ? channelLists[shipIds.indexOf(draft.shipId)]?.data ?? [] : [];

  const gaps = recordings.data?.gaps;
  const rows = useMemo(() => timelineRows(records, gaps), [records, gaps]);
  // What waits to be refilled from the ship, drawn on each camera's row.
  const pending = usePendingBackfill(rows);
  const filteredShip = filter.shipId ? ships.find((s) => s.id === filter.shipId) : undefined;
  const orgName = (orgId: string) => orgs.find((o) => o.id === orgId)?.displayName ?? orgId;
  const title = t('shorePlayback.page.title', { name: t(shorePlaybackLabel(selected?.id)) });

  const play = (recording: RecordingSummary, at: number) => {
    setPlaying((p) => ({ recording, at, seq: (p?.seq ?? 0) + 1 }));
    if (at < window.start || at > window.end) setWindow((w) => centreOn(w, at));
  };

  const search = () => {
    setFilter(draft);
    setPage(1);
    setWindow({ start: draft.start, end: draft.end });
  };

  return (
    <Layout.Content style={{ padding: 12, overflow: 'auto', background: token.colorBgLayout }} data-testid="shore-playback">
      <Flex vertical gap={12}>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="page-title">
          {title}
        </Typography.Title>
        <Flex gap={8} wrap align="center" data-testid="record-filter">
          <Select
            style={{ width: 240 }}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('shorePlayback.filter.allShips')}
            aria-label={t('shorePlayback.filter.ship')}
            data-testid="filter-ship"
            value={draft.shipId}
            options={ships.map((s) => ({ value: s.id, label: shipDisplayName(s) }))}
            onChange={(shipId?: string) => setDraft((d) => ({ ...d, shipId, cameraId: undefined }))}
          />
          <Select
            style={{ width: 220 }}
            allowClear
            disabled={!draft.shipId}
            placeholder={t('shorePlayback.filter.allChannels')}
            aria-label={t('shorePlayback.filter.channel')}
            data-testid="filter-channel"
            value={draft.cameraId}
            options={draftChannels.flatMap((c) => c.cameras.map((cam) => ({ value: cam.id, label: c.cameras.length > 1 ? `${c.name} · ${cam.name}` : c.name })))}
            onChange={(cameraId?: string) => setDraft((d) => ({ ...d, cameraId }))}
          />
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            allowClear={false}
            aria-label={t('shorePlayback.filter.time')}
            value={[dayjs(draft.start), dayjs(draft.end)]}
            // Spec §5: the pickers go up to now.
            disabledDate={(d: Dayjs) => d.startOf('day').valueOf() > Date.now()}
            onChange={(values) => {
              const [from, to] = values ?? [];
              if (from && to) setDraft((d) => ({ ...d, start: from.valueOf(), end: Math.min(to.valueOf(), Date.now()) }));
            }}
          />
          <Button type="primary" onClick={search} data-testid="filter-search">
            {t('shorePlayback.filter.search')}
          </Button>
        </Flex>

        <BackfillSwitches cameraId={filter.cameraId} orgId={filteredShip?.orgId ?? selected?.id} orgName={orgName} />

        <Flex gap={12} align="stretch">
          <div style={{ flex: '0 0 460px', minWidth: 0 }}>
            <Table<RecordingSummary>
              size="small"
              rowKey="id"
              data-testid="recording-list"
              loading={recordings.isFetching}
              dataSource={records}
              locale={{ emptyText: recordings.isError ? t('shorePlayback.list.loadFailed') : t('shorePlayback.list.empty') }}
              rowClassName={(r) => (r.id === playing?.recording.id ? 'ant-table-row-selected' : '')}
              onRow={(r) => ({ onClick: () => play(r, r.start), style: { cursor: 'pointer' }, 'data-recording-id': r.id } as React.HTMLAttributes<HTMLElement>)}
              pagination={{
                current: page,
                pageSize: PAGE_SIZE,
                total: recordings.data?.total ?? 0,
                showSizeChanger: false,
                showTotal: (count) => t('shorePlayback.list.total', { count }),
                itemRender: pageLinks,
                onChange: setPage,
              }}
              scroll={{ y: 360 }}
              // Headers on one line in both languages ("Duration" wrapped as "Durati / on" at 70 px).
              columns={[
                // The channel's whole name, wrapped when long ("Blue Ocean Shipping · Bridge" was cut to "Blue Ocean Shippi…").
                { key: 'channel', onHeaderCell: oneLineHeader, title: t('shorePlayback.list.channel'), render: (_, r) => <span style={{ overflowWrap: 'anywhere' }}>{cameraLabel(r.cameraId)}</span> },
                { key: 'start', onHeaderCell: oneLineHeader, title: t('shorePlayback.list.start'), width: 150, render: (_, r) => formatTime(r.start) },
                { key: 'duration', onHeaderCell: oneLineHeader, title: t('shorePlayback.list.duration'), width: 88, render: (_, r) => formatDuration(r.end - r.start) },
                { key: 'size', onHeaderCell: oneLineHeader, title: t('shorePlayback.list.size'), width: 80, render: (_, r) => formatBytes(r.bytes) },
              ]}
            />
          </div>
          <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
            <ShorePlayer
              request={playing}
              apiBase={PATHS.apiBase}
              title={playing ? cameraLabel(playing.recording.cameraId) : undefined}
              onTime={setShownTime}
            />
            <ClipExport recording={playing?.recording} at={shownTime} />
          </Flex>
        </Flex>

        <RecordingTimeline
          rows={rows}
          window={window}
          onWindow={setWindow}
          current={playing && shownTime !== undefined ? { cameraId: playing.recording.cameraId, time: shownTime } : undefined}
          onSeek={play}
          cameraLabel={cameraLabel}
          pending={pending}
        />
      </Flex>
    </Layout.Content>
  );
}

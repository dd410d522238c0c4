import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckOutlined, SettingOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Flex, Image, Segmented, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import { EVENT_CLASSES, type EventClass } from '@ship-cctv/protocol';
import { channelsQuery, shipDisplayName, shipsOf, useOrganisations } from '../../../shared/source-tree/index.ts';
import { useMessage } from '../../../shared/message.tsx';
import { usePageLinks } from '../../../shared/pagination/page-links.tsx';
import { eventPictureUrl, useAcknowledgeEvents, useEvents, type EventFilter, type EventInfo } from '../api/events.ts';
import { acknowledgeable, classesByScore, percent } from '../event-view.ts';
import { usePlayEvent } from '../hooks/usePlayEvent.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';
import { AckState, EventActions, errorText, formatEventTime } from './EventActions.tsx';
import { EventSettingsDialog } from './EventSettingsDialog.tsx';
import { EventTimeline } from './EventTimeline.tsx';


const PAGE_SIZE = 20;
type AckFilter = 'any' | 'no' | 'yes';

/**
 * /events: what the ships' analysis found — filtered by ship, camera, class, time and whether
 * acknowledged; a list with each event's picture, or a timeline per ship and camera; "play this
 * moment" opens ship playback at the event's start − 5 s; acknowledge one or many, delete.
 */
export function EventsPage() {
  const { t } = useTranslation();
  const message = useMessage();
  const pageLinks = usePageLinks();
  const { orgs, selected } = useOrganisations();
  // The tree's badge opens the screen for its ship (`?shipId=`).
  const [search] = useSearchParams();
  const [shipId, setShipId] = useState<string | undefined>(() => search.get('shipId') ?? undefined);
  const [cameraId, setCameraId] = useState<string>();
  const [eventClass, setEventClass] = useState<EventClass>();
  const [range, setRange] = useState<[number, number]>();
  const [ack, setAck] = useState<AckFilter>('any');
  const [page, setPage] = useState(1);
  const [view, setView] = useState<'list' | 'timeline'>('list');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { play, opening } = usePlayEvent();
  const acknowledgeMany = useAcknowledgeEvents();

  const ships = useMemo(() => {
    const roots = selected ? [selected.node] : orgs.filter((o) => o.depth === 0).map((o) => o.node);
    return roots.flatMap(shipsOf);
  }, [orgs, selected]);
  const channels = useQuery({ ...channelsQuery(shipId ?? ''), enabled: !!shipId });
  const cameras = useMemo(() => (channels.data ?? []).flatMap((channel) => channel.cameras.map((camera) => ({ value: camera.id, label: channel.cameras.length > 1 ? `${channel.name} · ${camera.name}` : channel.name }))), [channels.data]);

  const filter = useMemo<EventFilter>(
    () => ({
      shipId,
      cameraId,
      class: eventClass,
      from: range?.[0],
      to: range?.[1],
      acknowledged: ack === 'any' ? undefined : ack === 'yes',
    }),
    [shipId, cameraId, eventClass, range, ack],
  );
  const list = useEvents(filter, page, PAGE_SIZE);
  const events = list.data?.events ?? [];
  const change = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
    setPicked(new Set());
  };

  const onPlay = (event: EventInfo) => {
    void play(event).then((ok) => {
      if (!ok) void message.error(t('events.playFailed'));
    });
  };
  const toAcknowledge = acknowledgeable(events, picked);
  const classTags = (event: EventInfo) =>
    classesByScore(event).map((c) => (
      <Tag key={c.class} data-event-class={c.class}>
        {t('events.classScore', { class: t(`events.class.${c.class}`), score: percent(c.score) })}
      </Tag>
    ));
  const shipLabel = (event: EventInfo) => {
    const ship = ships.find((s) => s.id === event.shipId);
    return ship ? shipDisplayName(ship) : event.shipName;
  };

  return (
    <Flex vertical gap={8} style={{ padding: 12, flex: 1, minHeight: 0, overflow: 'auto' }} data-testid="events-page">
      <Flex align="center" gap={8} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('events.title')}
        </Typography.Title>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          style={{ width: 200 }}
          placeholder={t('events.filter.allShips')}
          aria-label={t('events.filter.ship')}
          data-event-filter="ship"
          value={shipId}
          options={ships.map((ship) => ({ value: ship.id, label: shipDisplayName(ship) }))}
          onChange={change((value: string | undefined) => {
            setShipId(value);
            setCameraId(undefined);
          })}
        />
        <Select
          allowClear
          style={{ width: 200 }}
          disabled={!shipId}
          placeholder={t('events.filter.allCameras')}
          aria-label={t('events.filter.camera')}
          data-event-filter="camera"
          value={cameraId}
          loading={channels.isLoading}
          options={cameras}
          onChange={change(setCameraId)}
        />
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t('events.filter.allClasses')}
          aria-label={t('events.filter.class')}
          data-event-filter="class"
          value={eventClass}
          options={EVENT_CLASSES.map((value) => ({ value, label: t(`events.class.${value}`) }))}
          onChange={change(setEventClass)}
        />
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          aria-label={t('events.filter.range')}
          value={range ? [dayjs(range[0]), dayjs(range[1])] : null}
          onChange={change((value: [dayjs.Dayjs | null, dayjs.Dayjs | null] | null) => setRange(value?.[0] && value[1] ? [value[0].valueOf(), value[1].valueOf()] : undefined))}
        />
        <Select
          style={{ width: 140 }}
          aria-label={t('events.filter.acknowledged')}
          data-event-filter="acknowledged"
          value={ack}
          options={[
            { value: 'any', label: t('events.filter.any') },
            { value: 'no', label: t('events.filter.unacknowledged') },
            { value: 'yes', label: t('events.filter.acknowledgedOnly') },
          ]}
          onChange={change(setAck)}
        />
        <Segmented
          value={view}
          onChange={(value) => setView(value as 'list' | 'timeline')}
          options={[
            { value: 'list', label: t('events.view.list') },
            { value: 'timeline', label: t('events.view.timeline') },
          ]}
        />
        <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} data-testid="event-settings-open">
          {t('events.settingsButton')}
        </Button>
      </Flex>
      <Flex align="center" gap={8}>
        <Typography.Text type="secondary" data-testid="events-total">
          {t('events.total', { total: list.data?.total ?? 0 })}
        </Typography.Text>
        {picked.size > 0 ? <Typography.Text>{t('events.selected', { count: picked.size })}</Typography.Text> : null}
        <Button
          size="small"
          icon={<CheckOutlined />}
          disabled={toAcknowledge.length === 0}
          loading={acknowledgeMany.isPending}
          data-testid="events-acknowledge-selected"
          onClick={() =>
            acknowledgeMany.mutate(toAcknowledge, {
              onSuccess: ({ acknowledged }) => {
                void message.success(t('events.acknowledgedCount', { count: acknowledged }));
                setPicked(new Set());
              },
              onError: (error) => void message.error(t('events.actionFailed', { message: errorText(error) })),
            })
          }
        >
          {t('events.acknowledgeSelected')}
        </Button>
      </Flex>
      {list.isError ? <Alert type="error" showIcon message={t('events.loadFailed', { message: errorText(list.error) })} /> : null}
      {view === 'timeline' ? (
        list.isLoading ? (
          <Spin />
        ) : events.length === 0 ? (
          <Typography.Text type="secondary">{t('events.empty')}</Typography.Text>
        ) : (
          <EventTimeline events={events} filter={filter} onPlay={onPlay} opening={opening} />
        )
      ) : null}
      <Table<EventInfo>
        size="small"
        rowKey="id"
        data-testid="events-list"
        style={view === 'timeline' ? { display: 'none' } : undefined}
        loading={list.isFetching && !list.data}
        dataSource={events}
        locale={{ emptyText: t('events.empty') }}
        onRow={(event) => ({ 'data-event-id': event.id }) as React.HTMLAttributes<HTMLElement>}
        rowSelection={{ selectedRowKeys: [...picked], onChange: (keys) => setPicked(new Set(keys.map(String))) }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, showSizeChanger: false, onChange: setPage, itemRender: pageLinks }}
        columns={[
          {
            key: 'picture',
            title: t('events.column.picture'),
            width: 140,
            render: (_, event) => (
              <Image
                src={eventPictureUrl(event.id)}
                width={128}
                height={Math.round((128 * event.pictureHeight) / Math.max(1, event.pictureWidth))}
                alt={t('events.pictureAlt', { ship: shipLabel(event), camera: event.cameraName, time: formatEventTime(event.start) })}
                data-event-picture={event.id}
              />
            ),
          },
          {
            key: 'time',
            title: t('events.column.time'),
            render: (_, event) => (
              <Space orientation="vertical" size={0}>
                <span>{formatEventTime(event.start)}</span>
                <Typography.Text type="secondary">{t('events.duration', { seconds: Math.max(1, Math.round((event.end - event.start) / 1000)) })}</Typography.Text>
              </Space>
            ),
          },
          { key: 'ship', title: t('events.column.ship'), render: (_, event) => shipLabel(event) },
          { key: 'camera', title: t('events.column.camera'), dataIndex: 'cameraName' },
          { key: 'classes', title: t('events.column.classes'), render: (_, event) => <Space size={2} wrap>{classTags(event)}</Space> },
          { key: 'zone', title: t('events.column.zone'), render: (_, event) => event.zone ?? t('events.noZone') },
          { key: 'state', title: t('events.column.state'), render: (_, event) => <AckState event={event} /> },
          { key: 'actions', title: t('events.column.actions'), render: (_, event) => <EventActions event={event} onPlay={onPlay} opening={opening === event.id} /> },
        ]}
      />
      {settingsOpen ? (
        <EventSettingsDialog org={selected} open initialShipId={shipId} initialCameraId={cameraId} onClose={() => setSettingsOpen(false)} />
      ) : null}
    </Flex>
  );
}

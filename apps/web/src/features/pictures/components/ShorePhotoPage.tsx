import { useMemo, useState } from 'react';
import { CloudDownloadOutlined, ScheduleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Empty, Flex, Image, Pagination, Select, Spin, Tag, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { PictureFilter, PictureInfo, ShorePictureOrigin } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { pickOrg, shipDisplayName, shipsOf, useOrganisations, useShipChannels } from '../../../shared/source-tree/index.ts';
import { usePageLinks } from '../../../shared/pagination/page-links.tsx';
import { pictureUrl, useShorePictures } from '../api/pictures.ts';
import { dayMarks } from '../day-timeline.ts';
import { usePictureListTranslation as useTranslation } from '../list-texts.ts';
import { pictureShipName } from '../ship-name.ts';
import { EnhanceDialog } from './EnhanceDialog.tsx';
import { TaskDrawer } from './TaskDrawer.tsx';
import styles from './pictures.module.css';

const PAGE_SIZE = 48;
/** The timeline shows up to this many pictures of the day (a task at 1 per 10 minutes makes 144). */
const TIMELINE_MAX = 200;

/**
 * /record/photo (shore photo playback): the pictures shore holds of the chosen organisation,
 * filtered by ship, channel, day and origin; a gallery whose viewer zooms and steps to the
 * next/previous, a download of each, a day timeline of when pictures were taken, AI enhancement of a
 * picture and the chosen ship's snapshot tasks.
 */
export function ShorePhotoPage() {
  const { t, i18n } = useTranslation();
  const { orgs, selected: org, isLoading: orgsLoading } = useOrganisations();
  const ships = useMemo(() => (org ? shipsOf(org.node) : []), [org]);
  const [shipId, setShipId] = useState<string>();
  const [cameraId, setCameraId] = useState<string>();
  const [day, setDay] = useState<Dayjs | null>(() => dayjs().startOf('day'));
  const [origin, setOrigin] = useState<ShorePictureOrigin>();
  const [page, setPage] = useState(1);
  const [viewer, setViewer] = useState<{ open: boolean; current: number }>({ open: false, current: 0 });
  const [enhancing, setEnhancing] = useState<PictureInfo>();
  const [tasksOpen, setTasksOpen] = useState(false);
  const { byShip, load } = useShipChannels();
  const ship = ships.find((s) => s.id === shipId);
  const channels = shipId ? byShip.get(shipId) : undefined;
  const cameras = channels?.status === 'ready' ? channels.channels.flatMap((c) => c.cameras.map((cam) => ({ value: cam.id, label: c.cameras.length > 1 ? `${c.name} · ${cam.name}` : c.name }))) : [];

  const cameraChannel = channels?.status === 'ready' ? channels.channels.find((c) => c.cameras.some((cam) => cam.id === cameraId)) : undefined;

  const filter: PictureFilter = {
    ...(org ? { orgId: org.id } : {}),
    ...(shipId ? { shipId } : {}),
    ...(cameraId ? { cameraId } : {}),
    ...(day ? { from: day.startOf('day').valueOf(), to: day.startOf('day').add(1, 'day').valueOf() } : {}),
    ...(origin ? { origin } : {}),
  };
  const list = useShorePictures(filter, page, PAGE_SIZE);
  // The timeline's pictures: asked only while a day is chosen.
  const wholeDay = useShorePictures(filter, 1, TIMELINE_MAX, day !== null);
  // The viewer steps through the day (or this page when no day is chosen).
  const viewed: PictureInfo[] = (day ? wholeDay.data?.pictures : list.data?.pictures) ?? [];
  const marks = useMemo(() => (day ? dayMarks(wholeDay.data?.pictures ?? [], day.startOf('day').valueOf(), day.startOf('day').add(1, 'day').valueOf() - day.startOf('day').valueOf()) : []), [day, wholeDay.data]);
  const size = (n: number) => formatBytes(n, i18n.language);
  // A card names its ship in the page's language (its English name in English); its tooltip both names.
  // Every ship the user sees names its pictures, also while no organisation is chosen.
  const knownShips = useMemo(() => orgs.flatMap((o) => shipsOf(o.node)), [orgs]);
  const shipName = (p: PictureInfo) => pictureShipName(knownShips.find((s) => s.id === p.shipId), p.shipName, i18n.language);
  const shipFull = (p: PictureInfo) => {
    const known = knownShips.find((s) => s.id === p.shipId);
    return known ? shipDisplayName(known) : p.shipName;
  };
  const openAt = (id: string) => {
    const index = viewed.findIndex((p) => p.id === id);
    if (index >= 0) setViewer({ open: true, current: index });
  };
  const reset = () => setPage(1);
  const pageLinks = usePageLinks();

  return (
    <Flex vertical gap={12} style={{ flex: 1, padding: 12, minHeight: 0 }} data-testid="shore-photo-page">
      <Flex align="center" gap={8} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('pictures.shore.title')}
        </Typography.Title>
        <span style={{ flex: 1 }} />
        <Select
          style={{ width: 200 }}
          aria-label={t('sourceTree.organisation')}
          placeholder={t('sourceTree.organisationPrompt')}
          loading={orgsLoading}
          value={org?.id}
          options={orgs.map((o) => ({ value: o.id, label: o.displayName }))}
          onChange={(id: string) => {
            pickOrg(id);
            setShipId(undefined);
            setCameraId(undefined);
            reset();
          }}
        />
        <Select
          style={{ width: 200 }}
          aria-label={t('pictures.shore.ship')}
          placeholder={t('pictures.shore.allShips')}
          allowClear
          loading={orgsLoading}
          value={shipId}
          options={ships.map((s) => ({ value: s.id, label: shipDisplayName(s) }))}
          onChange={(id?: string) => {
            setShipId(id);
            setCameraId(undefined);
            reset();
            const chosen = ships.find((s) => s.id === id);
            if (chosen) void load(chosen);
          }}
        />
        <Select
          style={{ width: 200 }}
          aria-label={t('pictures.shore.camera')}
          placeholder={t('pictures.shore.allCameras')}
          allowClear
          disabled={!ship}
          loading={channels?.status === 'loading'}
          value={cameraId}
          options={cameras}
          onChange={(id?: string) => {
            setCameraId(id);
            reset();
          }}
        />
        <DatePicker
          aria-label={t('pictures.shore.day')}
          value={day}
          disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
          onChange={(d) => {
            setDay(d ? d.startOf('day') : null);
            reset();
          }}
        />
        <Select
          style={{ width: 140 }}
          aria-label={t('pictures.shore.origin')}
          placeholder={t('pictures.shore.allOrigins')}
          allowClear
          value={origin}
          options={(['manual', 'task', 'stills'] as const).map((o) => ({ value: o, label: t(`pictureLists.origin.${o}`) }))}
          onChange={(o?: ShorePictureOrigin) => {
            setOrigin(o);
            reset();
          }}
        />
        <Tooltip title={ship ? undefined : t('pictures.tasks.chooseShipFirst')}>
          <Button icon={<ScheduleOutlined />} disabled={!ship} onClick={() => setTasksOpen(true)}>
            {t('pictures.tasks.open')}
          </Button>
        </Tooltip>
      </Flex>
      <TaskDrawer
        ship={ship ? { shipId: ship.id, shipDisplayName: shipDisplayName(ship), ...(cameraChannel ? { channel: { id: cameraChannel.id, name: cameraChannel.name } } : {}) } : undefined}
        open={tasksOpen}
        onClose={() => setTasksOpen(false)}
      />

      {day ? (
        <div aria-label={t('pictures.shore.timeline')}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('pictures.shore.timeline')}
          </Typography.Text>
          <div className={styles.timeline} data-testid="day-timeline">
            {marks.map((m) => (
              <Tooltip key={m.ids[0]} title={`${dayjs(m.time).format('HH:mm:ss')}${m.ids.length > 1 ? ` ×${m.ids.length}` : ''}`}>
                <button type="button" className={styles.mark} style={{ insetInlineStart: `${m.at * 100}%` }} aria-label={dayjs(m.time).format('HH:mm:ss')} onClick={() => openAt(m.ids[0] ?? '')} />
              </Tooltip>
            ))}
          </div>
          <div className={styles.hours}>
            {[0, 3, 6, 9, 12, 15, 18, 21, 24].map((h) => (
              <span key={h}>{String(h).padStart(2, '0')}:00</span>
            ))}
          </div>
        </div>
      ) : null}

      {list.error ? (
        <Alert type="error" showIcon message={t('pictures.loadFailed', { message: list.error.message })} />
      ) : !list.data ? (
        <Flex justify="center" style={{ marginTop: 64 }}>
          <Spin />
        </Flex>
      ) : list.data.pictures.length === 0 ? (
        <Empty description={t('pictures.shore.empty')} style={{ marginTop: 48 }} />
      ) : (
        <>
          <div className={styles.grid} role="list" aria-label={t('pictures.shore.title')}>
            {list.data.pictures.map((p) => (
              <div key={p.id} role="listitem" className={styles.card} data-picture-id={p.id}>
                <button type="button" onClick={() => openAt(p.id)} style={{ padding: 0, border: 'none', background: 'none', cursor: 'zoom-in' }} aria-label={`${shipName(p)} ${dayjs(p.takenAt).format('YYYY-MM-DD HH:mm:ss')}`}>
                  <img src={pictureUrl(p.id, { thumb: true })} alt="" className={styles.thumb} loading="lazy" />
                </button>
                <span className={styles.caption}>
                  <span>{dayjs(p.takenAt).format('YYYY-MM-DD HH:mm:ss')}</span>
                </span>
                <span className={styles.caption}>
                  <Typography.Text ellipsis style={{ fontSize: 12, maxWidth: 90 }} title={shipFull(p)} data-testid="picture-ship">
                    {shipName(p)}
                  </Typography.Text>
                  <Tag style={{ marginInlineEnd: 0 }} data-origin={p.origin}>
                    {t(`pictureLists.origin.${p.origin}`)}
                  </Tag>
                </span>
                <span className={styles.caption}>
                  <Button size="small" type="link" style={{ padding: 0 }} icon={<ThunderboltOutlined />} onClick={() => setEnhancing(p)}>
                    {t('pictures.enhance.button')}
                  </Button>
                  <a href={pictureUrl(p.id, { download: true })} aria-label={`${t('pictures.shore.download')} ${dayjs(p.takenAt).format('HH:mm:ss')}`} title={t('pictures.shore.download')}>
                    <CloudDownloadOutlined /> {size(p.bytes)}
                  </a>
                </span>
              </div>
            ))}
          </div>
          <Flex justify="space-between" align="center">
            <Typography.Text type="secondary">{t('pictures.shore.total', { count: list.data.total })}</Typography.Text>
            <Pagination current={page} pageSize={PAGE_SIZE} total={list.data.total} showSizeChanger={false} onChange={setPage} size="small" itemRender={pageLinks} />
          </Flex>
        </>
      )}
      {enhancing ? <EnhanceDialog picture={enhancing} onClose={() => setEnhancing(undefined)} /> : null}
      <Image.PreviewGroup
        items={viewed.map((p) => ({ src: pictureUrl(p.id), alt: `${shipName(p)} ${dayjs(p.takenAt).format('YYYY-MM-DD HH:mm:ss')}` }))}
        preview={{
          open: viewer.open,
          current: viewer.current,
          onOpenChange: (open, info) => setViewer({ open, current: info.current }),
          onChange: (current) => setViewer((v) => ({ ...v, current })),
        }}
      />
    </Flex>
  );
}

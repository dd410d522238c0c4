import { useEffect, useRef, useState } from 'react';
import { ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RecordingSummary } from '@ship-cctv/protocol';
import { formatClock, formatTime } from '../format.ts';
import { GAP_CAUSES } from '@ship-cctv/protocol';
import { GapBand, GapLegend, causesIn } from '../../../shared/recording-gaps/index.ts';
import { type PendingSpan, type TimeWindow, type TimelineRow, bands, centreOn, gapBands, pan, pendingBands, recordingAt, spanLabel, ticks, timeToX, xToTime, zoom } from '../timeline.ts';

const LABEL_WIDTH = 180;
const ROW_HEIGHT = 28;
/** A click this many pixels beside a span still hits it. */
const SLACK_PX = 6;
const DRAG_PX = 4;

export interface RecordingTimelineProps {
  rows: TimelineRow[];
  window: TimeWindow;
  onWindow(window: TimeWindow): void;
  /** What is playing, drawn as the cursor. */
  current: { cameraId: string; time: number } | undefined;
  onSeek(recording: RecordingSummary, time: number): void;
  cameraLabel(cameraId: string): string;
  /** Spans of each camera (by id) waiting to be refilled from the ship, or being copied now. */
  pending?: ReadonlyMap<string, readonly PendingSpan[]>;
}

/**
 * Spec §2 /record/video: recorded spans per channel on a time axis, and the gaps between them
 * hatched by cause (a tooltip and the legend say why nothing was recorded). Click plays from that
 * time, drag moves the window, the wheel or the buttons zoom from a day down to two minutes.
 */
export function RecordingTimeline({ rows, window, onWindow, current, onSeek, cameraLabel, pending }: RecordingTimelineProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  /** A refilled recording's title: that it was refilled, and what it holds when the index says. */
  const refilledTitle = (r: RecordingSummary | undefined) => {
    const d = r?.definition;
    const refilled = t('shorePlayback.backfill.backfilled');
    if (!d) return refilled;
    const holds = t('shorePlayback.backfill.holds', { width: d.width, height: d.height, frameRate: d.frameRate, kbps: d.bitrateKbps });
    return `${refilled} · ${holds} · ${t(d.transcoded ? 'shorePlayback.backfill.transcoded' : 'shorePlayback.backfill.copied')}`;
  };
  const track = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const drag = useRef<{ x: number; window: TimeWindow; moved: boolean } | undefined>(undefined);
  const latest = useRef({ window, onWindow });
  latest.current = { window, onWindow };

  useEffect(() => {
    const el = track.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(() => setWidth(Math.max(100, el.clientWidth)));
    observer.observe(el);
    setWidth(Math.max(100, el.clientWidth));
    // Not a passive listener: the wheel zooms the timeline instead of scrolling the page.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { window: w, onWindow: set } = latest.current;
      const rect = el.getBoundingClientRect();
      set(zoom(w, e.deltaY < 0 ? 1 : -1, xToTime(w, e.clientX - rect.left, rect.width)));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      observer.disconnect();
      el.removeEventListener('wheel', onWheel);
    };
  }, [rows.length]);

  const span = spanLabel(window);
  const zoneOffset = -new Date(window.start).getTimezoneOffset() * 60_000;
  const tickTimes = ticks(window, 8, zoneOffset);

  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    drag.current = { x: e.clientX, window, moved: false };
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    if (!d.moved && Math.abs(dx) < DRAG_PX) return;
    d.moved = true;
    onWindow(pan(d.window, (-dx / width) * (d.window.end - d.window.start)));
  };
  const onPointerUp = (e: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = undefined;
    if (!d || d.moved || !track.current) return;
    const rect = track.current.getBoundingClientRect();
    const rowIndex = Math.floor((e.clientY - rect.top - ROW_HEIGHT) / ROW_HEIGHT);
    const row = rows[rowIndex];
    if (!row) return;
    const time = xToTime(window, e.clientX - rect.left, rect.width);
    const slack = (SLACK_PX / rect.width) * (window.end - window.start);
    const hit = recordingAt(row, time, slack);
    if (hit) onSeek(hit.recording, hit.time);
  };

  // The buttons zoom around what is playing (kept in the middle), else around the middle.
  const zoomBy = (steps: number) => {
    const next = zoom(window, steps);
    onWindow(current ? centreOn(next, current.time) : next);
  };

  // Waiting spans hatched (copying now: the info colour; waiting: the warning colour), over the track, under the cursor.
  const pendingColour = { running: token.colorInfo, pending: token.colorWarning, budget: token.colorError } as const;
  const hatch = (colour: string) => `repeating-linear-gradient(135deg, ${colour} 0 4px, transparent 4px 8px)`;
  const anyBackfill = rows.some((r) => r.recordings.some((rec) => rec.backfilled) || (pending?.get(r.cameraId)?.length ?? 0) > 0);

  const shownGaps = rows.flatMap((row) => gapBands(row, window, width).map((b) => b.gap));
  const cursorRow = current ? rows.findIndex((r) => r.cameraId === current.cameraId) : -1;

  return (
    <Flex vertical gap={4} data-testid="timeline" aria-label={t('shorePlayback.timeline.label')}>
      <Flex align="center" gap={8}>
        <Typography.Text strong>{t('shorePlayback.timeline.label')}</Typography.Text>
        <Tooltip title={t('shorePlayback.timeline.zoomOut')}>
          <Button size="small" icon={<ZoomOutOutlined />} aria-label={t('shorePlayback.timeline.zoomOut')} onClick={() => zoomBy(-1)} />
        </Tooltip>
        <Tooltip title={t('shorePlayback.timeline.zoomIn')}>
          <Button size="small" icon={<ZoomInOutlined />} aria-label={t('shorePlayback.timeline.zoomIn')} data-testid="timeline-zoom-in" onClick={() => zoomBy(1)} />
        </Tooltip>
        <Typography.Text type="secondary" data-testid="timeline-window">
          {t('shorePlayback.timeline.window', { span: t(`shorePlayback.timeline.${span.key}`, { count: span.count }) })}
        </Typography.Text>
        {anyBackfill ? (
          <Flex gap={8} align="center" data-testid="timeline-backfill-legend">
            <span style={{ display: 'inline-block', width: 14, height: 10, background: token.colorSuccess, opacity: 0.75, borderRadius: 2 }} />
            <Typography.Text type="secondary">{t('shorePlayback.backfill.backfilled')}</Typography.Text>
            <span style={{ display: 'inline-block', width: 14, height: 10, background: hatch(pendingColour.running), border: `1px dashed ${pendingColour.running}`, borderRadius: 2 }} />
            <Typography.Text type="secondary">{t('shorePlayback.backfill.running')}</Typography.Text>
            <span style={{ display: 'inline-block', width: 14, height: 10, background: hatch(pendingColour.pending), border: `1px dashed ${pendingColour.pending}`, borderRadius: 2 }} />
            <Typography.Text type="secondary">{t('shorePlayback.backfill.pending')}</Typography.Text>
          </Flex>
        ) : null}
        <Typography.Text type="secondary" style={{ marginLeft: 'auto' }}>
          {t('shorePlayback.timeline.hint')}
        </Typography.Text>
      </Flex>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shorePlayback.timeline.noSpans')} />
      ) : (
        <Flex>
          <div style={{ width: LABEL_WIDTH, flex: 'none' }}>
            <div style={{ height: ROW_HEIGHT }} />
            {rows.map((row) => (
              <div key={row.cameraId} style={{ height: ROW_HEIGHT, lineHeight: `${ROW_HEIGHT}px`, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', paddingRight: 8 }} title={cameraLabel(row.cameraId)}>
                {cameraLabel(row.cameraId)}
              </div>
            ))}
          </div>
          <div
            ref={track}
            data-testid="timeline-track"
            data-window-start={window.start}
            data-window-end={window.end}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            style={{ position: 'relative', flex: 1, minWidth: 0, height: ROW_HEIGHT * (rows.length + 1), cursor: 'pointer', userSelect: 'none', touchAction: 'none', overflow: 'hidden', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusSM }}
          >
            {tickTimes.map((tick) => (
              <div key={tick} style={{ position: 'absolute', left: timeToX(window, tick, width), top: 0, bottom: 0, borderLeft: `1px dashed ${token.colorBorderSecondary}` }}>
                <span style={{ position: 'absolute', top: 4, left: 4, fontSize: 11, color: token.colorTextSecondary, whiteSpace: 'nowrap' }}>
                  {window.end - window.start > 86_400_000 / 2 ? formatTime(tick).slice(5, 16) : formatClock(tick)}
                </span>
              </div>
            ))}
            {rows.map((row, i) => (
              <div key={row.cameraId} data-testid={`timeline-row-${row.cameraId}`} style={{ position: 'absolute', left: 0, right: 0, top: ROW_HEIGHT * (i + 1), height: ROW_HEIGHT, borderTop: `1px solid ${token.colorSplit}` }}>
                {gapBands(row, window, width).map((b) => (
                  <GapBand key={`gap-${b.gap.start}`} gap={b.gap} left={b.left} width={b.width} top={10} bottom={10} formatTime={formatTime} />
                ))}
                {bands(row, window, width).map((b) => (
                  <div
                    key={b.id}
                    data-testid={`span-${b.id}`}
                    data-backfilled={b.backfilled || undefined}
                    title={b.backfilled ? refilledTitle(row.recordings.find((r) => r.id === b.id)) : undefined}
                    style={{ position: 'absolute', left: b.left, width: b.width, top: 6, bottom: 6, background: b.backfilled ? token.colorSuccess : token.colorPrimary, opacity: 0.75, borderRadius: 2 }}
                  />
                ))}
                {pendingBands(pending?.get(row.cameraId) ?? [], window, width).map((b) => (
                  <div
                    key={b.key}
                    data-testid={`backfill-${row.cameraId}-${b.kind}`}
                    title={t(`shorePlayback.backfill.${b.kind}`)}
                    aria-label={t(`shorePlayback.backfill.${b.kind}`)}
                    style={{ position: 'absolute', left: b.left, width: b.width, top: 6, bottom: 6, background: hatch(pendingColour[b.kind]), border: `1px dashed ${pendingColour[b.kind]}`, borderRadius: 2 }}
                  />
                ))}
              </div>
            ))}
            {current && cursorRow >= 0 && current.time >= window.start && current.time <= window.end ? (
              <div
                data-testid="timeline-cursor"
                style={{ position: 'absolute', left: timeToX(window, current.time, width), top: 0, bottom: 0, borderLeft: `2px solid ${token.colorError}`, pointerEvents: 'none' }}
              />
            ) : null}
          </div>
        </Flex>
      )}
      <GapLegend causes={causesIn(shownGaps, GAP_CAUSES)} />
    </Flex>
  );
}

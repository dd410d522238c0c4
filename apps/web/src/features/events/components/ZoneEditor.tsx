import { useRef, useState } from 'react';
import { Button, Flex, Input, Typography, theme } from 'antd';
import { EVENT_MASKS_MAX, EVENT_ZONES_MAX, POLYGON_POINTS_MAX, type EventZone, type Polygon } from '@ship-cctv/protocol';
import { canClose, relativePoint, svgPoints } from '../event-view.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';

type Point = [number, number];

export interface ZoneEditorProps {
  /** The camera's latest picture; none: a grey 16:9 area. */
  pictureUrl: string | undefined;
  pictureAlt: string;
  zones: EventZone[];
  masks: Polygon[];
  onChange(next: { zones: EventZone[]; masks: Polygon[] }): void;
  disabled?: boolean;
}

/**
 * Zones and masks drawn on the camera's picture: each a polygon of points relative to the picture
 * (0..1), so they hold at whatever definition the ship analyses. A click on the picture adds a
 * point to the polygon being drawn; Finish keeps it (3 points at least).
 */
export function ZoneEditor({ pictureUrl, pictureAlt, zones, masks, onChange, disabled }: ZoneEditorProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [drawing, setDrawing] = useState<{ kind: 'zone' | 'mask'; points: Point[] }>();
  const area = useRef<HTMLDivElement>(null);

  const addPoint = (e: React.MouseEvent) => {
    if (!drawing || !area.current || drawing.points.length >= POLYGON_POINTS_MAX) return;
    const box = area.current.getBoundingClientRect();
    const point = relativePoint(e.clientX - box.left, e.clientY - box.top, box.width, box.height);
    setDrawing({ ...drawing, points: [...drawing.points, point] });
  };
  const finish = () => {
    if (!drawing || !canClose(drawing.points)) return;
    if (drawing.kind === 'zone') {
      const names = new Set(zones.map((z) => z.name));
      let n = zones.length + 1;
      while (names.has(t('events.settings.zoneDefault', { n }))) n += 1;
      onChange({ zones: [...zones, { name: t('events.settings.zoneDefault', { n }), polygon: drawing.points }], masks });
    } else onChange({ zones, masks: [...masks, drawing.points] });
    setDrawing(undefined);
  };

  return (
    <Flex gap={12} align="flex-start">
      <div style={{ flex: 1, minWidth: 0 }}>
        <div
          ref={area}
          onClick={addPoint}
          data-testid="zone-canvas"
          style={{ position: 'relative', aspectRatio: '16 / 9', background: token.colorFillSecondary, cursor: drawing ? 'crosshair' : 'default', userSelect: 'none' }}
        >
          {pictureUrl ? <img src={pictureUrl} alt={pictureAlt} draggable={false} style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill' }} /> : null}
          <svg viewBox="0 0 1 1" preserveAspectRatio="none" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }} aria-hidden>
            {zones.map((zone, i) => (
              <polygon key={i} points={svgPoints(zone.polygon)} fill="rgba(22,119,255,0.25)" stroke="#1677ff" strokeWidth={0.004} data-zone={zone.name} />
            ))}
            {masks.map((mask, i) => (
              <polygon key={i} points={svgPoints(mask)} fill="rgba(0,0,0,0.45)" stroke="#000" strokeWidth={0.004} data-mask={i} />
            ))}
            {drawing ? <polyline points={svgPoints(drawing.points)} fill="rgba(250,173,20,0.2)" stroke="#faad14" strokeWidth={0.005} /> : null}
          </svg>
        </div>
        <Flex gap={8} style={{ marginTop: 8 }} wrap>
          {drawing ? (
            <>
              <Typography.Text data-testid="zone-drawing">
                {t('events.settings.drawing', { what: t(drawing.kind === 'zone' ? 'events.settings.zones' : 'events.settings.masks'), count: drawing.points.length })}
              </Typography.Text>
              <Button size="small" type="primary" disabled={!canClose(drawing.points)} onClick={finish} data-testid="zone-finish">
                {t('events.settings.finish')}
              </Button>
              <Button size="small" onClick={() => setDrawing(undefined)}>
                {t('events.settings.cancelDrawing')}
              </Button>
            </>
          ) : (
            <>
              <Button size="small" disabled={disabled || zones.length >= EVENT_ZONES_MAX} onClick={() => setDrawing({ kind: 'zone', points: [] })} data-testid="zone-add">
                {t('events.settings.addZone')}
              </Button>
              <Button size="small" disabled={disabled || masks.length >= EVENT_MASKS_MAX} onClick={() => setDrawing({ kind: 'mask', points: [] })} data-testid="mask-add">
                {t('events.settings.addMask')}
              </Button>
            </>
          )}
        </Flex>
      </div>
      <div style={{ width: 240, flex: 'none' }}>
        <Typography.Text strong>{t('events.settings.zones')}</Typography.Text>
        <Flex vertical gap={4} style={{ margin: '4px 0 12px' }}>
          {zones.length === 0 ? <Typography.Text type="secondary">—</Typography.Text> : null}
          {zones.map((zone, index) => (
            <Flex key={index} gap={4} align="center" data-zone-item={zone.name}>
              <Input
                size="small"
                aria-label={t('events.settings.zoneName')}
                maxLength={40}
                value={zone.name}
                disabled={disabled}
                onChange={(e) => onChange({ zones: zones.map((z, i) => (i === index ? { ...z, name: e.target.value } : z)), masks })}
              />
              <Button size="small" type="link" danger disabled={disabled} onClick={() => onChange({ zones: zones.filter((_, i) => i !== index), masks })}>
                {t('events.settings.remove')}
              </Button>
            </Flex>
          ))}
        </Flex>
        <Typography.Text strong>{t('events.settings.masks')}</Typography.Text>
        <Flex vertical gap={4} style={{ marginTop: 4 }}>
          {masks.length === 0 ? <Typography.Text type="secondary">—</Typography.Text> : null}
          {masks.map((mask, index) => (
            <Flex key={index} gap={4} align="center" justify="space-between" data-mask-item={index}>
              <span>
                {t('events.settings.maskName', { n: index + 1 })} · {t('events.settings.points', { count: mask.length })}
              </span>
              <Button size="small" type="link" danger disabled={disabled} onClick={() => onChange({ zones, masks: masks.filter((_, i) => i !== index) })}>
                {t('events.settings.remove')}
              </Button>
            </Flex>
          ))}
        </Flex>
      </div>
    </Flex>
  );
}

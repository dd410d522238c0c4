import { useCarouselTranslation as useTranslation } from '../texts.ts';
import type { CarouselCell } from '@ship-cctv/protocol';
import type { PlayableSource } from '../../../shared/playable-source.ts';
import { PlayerCell } from '../../../shared/player-cell/index.ts';
import { gridPlace, mountedCells } from '../paging.ts';
import styles from '../carousel.module.css';

/** What a player cell needs of a carousel cell. */
export function cellSource(cell: CarouselCell): PlayableSource {
  return {
    cameraId: cell.cameraId,
    title: cell.channelName,
    channelId: cell.channelId,
    shipId: cell.shipId,
    shipName: cell.shipName,
    shipDisplayName: cell.shipDisplayName,
    orgId: cell.orgId,
    orgName: cell.orgName,
    waitTime: cell.waitTime,
    componentType: 'live',
  };
}

/** A cell whose ship is offline: said at once instead of waiting for video that cannot come. */
function OfflineCard({ cell }: { cell: CarouselCell }) {
  const { t } = useTranslation();
  return (
    <div className={styles.offline} role="region" aria-label={`${cell.channelName} ${cell.shipDisplayName}`} data-state="offline">
      <span className={styles.offlineTitle}>{cell.channelName}</span>
      <span>{cell.shipDisplayName}</span>
      <span>{t('carousel.player.offline')}</span>
    </div>
  );
}

export interface CarouselGridProps {
  carouselId: string;
  layout: number;
  templateId: number | undefined;
  cells: readonly CarouselCell[];
  /** The next page's cells while they pre-warm. */
  next: readonly CarouselCell[] | undefined;
}

/**
 * The page on screen in a square of `layout` cells, and the next page's cells, pre-warming,
 * hidden under the places they will take. All in one list keyed by channel: at the switch the
 * pre-warmed element (already playing) is shown, not a new one started; cells that leave unmount
 * and their streams stop. Only the page on screen and that short pre-warm ever stream.
 */
export function CarouselGrid({ carouselId, layout, templateId, cells, next }: CarouselGridProps) {
  const { t } = useTranslation();
  const side = Math.max(1, Math.round(Math.sqrt(layout)));
  const mounted = mountedCells(cells, next);
  const emptySlots = Array.from({ length: Math.max(0, layout - cells.length) }, (_, i) => cells.length + i);
  return (
    <div className={styles.grid} style={{ gridTemplateColumns: `repeat(${side}, minmax(0, 1fr))`, gridTemplateRows: `repeat(${side}, minmax(0, 1fr))` }} data-testid="carousel-grid">
      {mounted.map(({ cell, slot, visible }) => {
        const place = gridPlace(slot, layout);
        return (
          <div
            key={cell.channelId}
            className={styles.slot}
            style={{ gridRow: place.row, gridColumn: place.column }}
            data-channel-id={cell.channelId}
            data-visible={String(visible)}
            aria-hidden={visible ? undefined : true}
            inert={!visible}
          >
            {cell.online ? (
              // Without a carousel template, each cell follows the link policy for the carousel's grid size.
              <PlayerCell source={cellSource(cell)} carouselId={carouselId} {...(templateId === undefined ? { gridSize: layout } : { templateId })} />
            ) : (
              <OfflineCard cell={cell} />
            )}
          </div>
        );
      })}
      {emptySlots.map((slot) => {
        const place = gridPlace(slot, layout);
        return (
          <div key={`empty-${slot}`} className={styles.emptySlot} style={{ gridRow: place.row, gridColumn: place.column }} data-empty-cell="">
            {t('carousel.player.emptyCell')}
          </div>
        );
      })}
    </div>
  );
}

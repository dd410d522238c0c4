import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOrganisationPlaylist } from '../hooks/useOrganisationPlaylist.ts';
import { GRID_SIZES, isGridSize, usePlaylist, usePlaylistActions } from '../playlist.ts';
import styles from './PlayGrid.module.css';
import { PlayerCell } from '../../../shared/player-cell/PlayerCell.tsx';
import { useOrganisations } from '../../../shared/source-tree/index.ts';

/**
 * The main area of /live/index (spec §2 "Play grid"): 1, 4, 9 or 16 cells filled in playlist
 * order. Channels beyond the grid size stay in the playlist (and do not play) until the grid grows
 * or earlier cells are closed.
 */
export function PlayGrid() {
  const { t } = useTranslation();
  const { gridSize, playlist, selected: selectedCell } = usePlaylist();
  const { remove, setGridSize, select } = usePlaylistActions();
  useOrganisationPlaylist();
  const side = Math.sqrt(gridSize);
  const shown = playlist.slice(0, gridSize);
  const empty = gridSize - shown.length;
  // A user of several organisations sees no ships until one is picked: the empty cells say so.
  const { orgs, selected } = useOrganisations();
  const emptyText = !selected && orgs.length > 1 ? t('live.grid.pickOrganisation') : t('live.grid.emptyCell');

  return (
    <section className={styles.root} aria-label={t('live.grid.label')}>
      <div className={styles.toolbar}>
        <Segmented<number>
          aria-label={t('live.grid.layout')}
          size="small"
          value={gridSize}
          options={GRID_SIZES.map((n) => ({ value: n, label: t('live.grid.layoutOption', { count: n }) }))}
          onChange={(n) => {
            if (isGridSize(n)) setGridSize(n);
          }}
        />
      </div>
      <div className={styles.grid} style={{ gridTemplateColumns: `repeat(${side}, minmax(0, 1fr))`, gridTemplateRows: `repeat(${side}, minmax(0, 1fr))` }}>
        {/* Keyed by camera: closing a cell moves the later ones up without restarting their streams. */}
        {shown.map((source) => (
          <PlayerCell key={source.cameraId} source={source} onClose={remove} gridSize={gridSize} selected={source.cameraId === selectedCell} onSelect={select} />
        ))}
        {Array.from({ length: empty }, (_, i) => (
          <div key={`empty-${i}`} className={styles.empty} data-empty-cell="">
            {emptyText}
          </div>
        ))}
      </div>
    </section>
  );
}

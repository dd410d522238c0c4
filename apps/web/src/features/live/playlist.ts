/**
 * The desktop play grid's state (spec §2 "Play grid", §3 "The play grid: gridSize and a
 * playlist"): the grid size and the ordered list of sources the cells play. It lives outside React
 * so the source tree (which adds) and the grid (which plays and removes) share it without a
 * provider, and it is kept in localStorage so a reload brings back the same layout and channels.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';

import { useTranslation } from 'react-i18next';
import { LIMITS } from '@ship-cctv/protocol';
import type { PlayableSource } from '../../shared/playable-source.ts';
import { useMessage } from '../../shared/message.tsx';

export const GRID_SIZES = [1, 4, 9, 16] as const;
export type GridSize = (typeof GRID_SIZES)[number];

export const PLAYLIST_MAX: number = LIMITS.playlistMax;
export const DEFAULT_GRID_SIZE: GridSize = 4;

export interface PlaylistState {
  gridSize: GridSize;
  playlist: readonly PlayableSource[];
  /** The cell the operator last clicked (its camera): a channel opened into a full grid replaces it. Not kept across reloads. */
  selected?: string | undefined;
}

export const EMPTY_PLAYLIST_STATE: PlaylistState = { gridSize: DEFAULT_GRID_SIZE, playlist: [] };

// ---------------------------------------------------------------------------------------------
// Rules (pure)

export interface AddOutcome {
  playlist: readonly PlayableSource[];
  /** The source was not added because the playlist already holds PLAYLIST_MAX entries. */
  full: boolean;
}

/**
 * Double-click on a channel. A channel already in the list is left where it is (no duplicate
 * cell, no warning: the operator sees it playing); a full list refuses with `full`.
 */
export function addToPlaylist(playlist: readonly PlayableSource[], source: PlayableSource): AddOutcome {
  if (playlist.some((s) => s.cameraId === source.cameraId)) return { playlist, full: false };
  if (playlist.length >= PLAYLIST_MAX) return { playlist, full: true };
  return { playlist: [...playlist, source], full: false };
}

export interface PlaceOutcome {
  playlist: readonly PlayableSource[];
  /** The channel whose cell it took, when every cell was in use (it moves just past the grid, still in the playlist). */
  replaced: PlayableSource | undefined;
  /** A new channel refused because the playlist already holds PLAYLIST_MAX entries. */
  full: boolean;
}

/**
 * Double-click on a channel in a grid of `gridSize` cells. One in view stays where it is; a new one
 * takes the next free cell. With every cell in use it takes the selected cell (none selected: the
 * first, the longest shown), and the channel it replaces moves just past the grid — still in the
 * playlist, back in view with a larger layout or a closed cell. A channel waiting past the grid
 * comes into view the same way. A full playlist refuses a new channel (spec: 16).
 */
export function placeInGrid(playlist: readonly PlayableSource[], source: PlayableSource, gridSize: number, selected?: string): PlaceOutcome {
  const at = playlist.findIndex((s) => s.cameraId === source.cameraId);
  if (at >= 0 && at < gridSize) return { playlist, replaced: undefined, full: false };
  if (at < 0 && playlist.length >= PLAYLIST_MAX) return { playlist, replaced: undefined, full: true };
  if (at < 0 && playlist.length < gridSize) return { playlist: [...playlist, source], replaced: undefined, full: false };
  const rest = playlist.filter((s) => s.cameraId !== source.cameraId);
  const chosen = rest.findIndex((s) => s.cameraId === selected);
  const target = chosen >= 0 && chosen < gridSize ? chosen : 0;
  const replaced = rest[target];
  if (!replaced) return { playlist: [...rest, source], replaced: undefined, full: false };
  return { playlist: [...rest.slice(0, target), source, ...rest.slice(target + 1, gridSize), replaced, ...rest.slice(gridSize)], replaced, full: false };
}

export interface AddManyOutcome {
  playlist: readonly PlayableSource[];
  /** Some new sources were left out because the list reached PLAYLIST_MAX ("only the first 16"). */
  cut: boolean;
}

/**
 * Right-click on a group: its channels are appended in order up to PLAYLIST_MAX in total. Ones
 * already playing (or repeated in `sources`) are skipped rather than counted, so they never cause
 * a cut by themselves.
 */
export function addManyToPlaylist(playlist: readonly PlayableSource[], sources: readonly PlayableSource[]): AddManyOutcome {
  const seen = new Set(playlist.map((s) => s.cameraId));
  const next = [...playlist];
  let cut = false;
  for (const source of sources) {
    if (seen.has(source.cameraId)) continue;
    if (next.length >= PLAYLIST_MAX) {
      cut = true;
      break;
    }
    seen.add(source.cameraId);
    next.push(source);
  }
  return { playlist: next.length === playlist.length ? playlist : next, cut };
}

export function removeFromPlaylist(playlist: readonly PlayableSource[], cameraId: string): readonly PlayableSource[] {
  const next = playlist.filter((s) => s.cameraId !== cameraId);
  return next.length === playlist.length ? playlist : next;
}

/**
 * Spec §2: changing the organisation clears the sources of the one before — only channels of the
 * selected organisation's ships (its sub-organisations' included) stay in the grid.
 */
export function keepShips(playlist: readonly PlayableSource[], shipIds: ReadonlySet<string>): readonly PlayableSource[] {
  const next = playlist.filter((s) => shipIds.has(s.shipId));
  return next.length === playlist.length ? playlist : next;
}

export function isGridSize(value: unknown): value is GridSize {
  return GRID_SIZES.includes(value as GridSize);
}

// ---------------------------------------------------------------------------------------------
// Persistence

export const PLAYLIST_STORAGE_KEY = 'ship-cctv.live.playlist.v1';

function isPlayableSource(value: unknown): value is PlayableSource {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const strings = ['cameraId', 'title', 'channelId', 'shipId', 'shipName', 'shipDisplayName', 'orgId', 'orgName'] as const;
  return strings.every((k) => typeof v[k] === 'string') && typeof v.waitTime === 'number' && v.componentType === 'live';
}

/**
 * Reads what a previous page stored. Anything unexpected (another version, hand-edited storage)
 * falls back entry by entry rather than failing the page: a broken entry is dropped, the rest kept.
 */
export function parseStoredPlaylist(raw: string | null): PlaylistState {
  if (!raw) return EMPTY_PLAYLIST_STATE;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return EMPTY_PLAYLIST_STATE;
  }
  if (typeof value !== 'object' || value === null) return EMPTY_PLAYLIST_STATE;
  const v = value as { gridSize?: unknown; playlist?: unknown };
  const gridSize = isGridSize(v.gridSize) ? v.gridSize : DEFAULT_GRID_SIZE;
  const entries = Array.isArray(v.playlist) ? v.playlist.filter(isPlayableSource) : [];
  // Re-applying the add rule removes duplicates and anything beyond the limit.
  return { gridSize, playlist: addManyToPlaylist([], entries).playlist };
}

// ---------------------------------------------------------------------------------------------
// Store

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

export interface PlaylistStore {
  getSnapshot(): PlaylistState;
  subscribe(listener: () => void): () => void;
  /** Applies `update`; listeners and storage only hear of a real change. */
  update(update: (state: PlaylistState) => PlaylistState): void;
}

function safeStorage(): StorageLike | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage access throws in some privacy modes; the grid then simply forgets on reload.
    return undefined;
  }
}

export function createPlaylistStore(storage: StorageLike | undefined = safeStorage()): PlaylistStore {
  let state = parseStoredPlaylist(readItem(storage));
  const listeners = new Set<() => void>();

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update(update) {
      const next = update(state);
      if (next === state || (next.gridSize === state.gridSize && next.playlist === state.playlist && next.selected === state.selected)) return;
      const stored = next.gridSize !== state.gridSize || next.playlist !== state.playlist;
      state = next;
      if (stored) writeState(storage, state);
      for (const listener of listeners) listener();
    },
  };
}

function writeState(storage: StorageLike | undefined, state: PlaylistState): void {
  try {
    storage?.setItem(PLAYLIST_STORAGE_KEY, JSON.stringify({ gridSize: state.gridSize, playlist: state.playlist }));
  } catch {
    // Quota or privacy mode: the in-memory state is still right for this page.
  }
}

function readItem(storage: StorageLike | undefined): string | null {
  try {
    return storage?.getItem(PLAYLIST_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** The app's one playlist. */
export const playlistStore: PlaylistStore = createPlaylistStore();

// ---------------------------------------------------------------------------------------------
// React bindings

export function usePlaylist(store: PlaylistStore = playlistStore): PlaylistState {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

export interface PlaylistActions {
  /**
   * Double-click on a channel; warns "只能同时播放16个通道" when the list is full. Into a grid whose
   * cells are all in use it replaces the selected cell (placeInGrid) and says so.
   */
  add(source: PlayableSource): void;
  /** Right-click on a group; warns "只能同时播放前16个通道" when it had to leave some out, and says when channels added wait past a full grid. */
  addMany(sources: PlayableSource[]): void;
  remove(cameraId: string): void;
  /** The operator clicked a cell: a channel opened into a full grid goes there. */
  select(cameraId: string): void;
  setGridSize(size: GridSize): void;
}

/** How long the grid-full note shows (s). */
const GRID_FULL_NOTE_S = 6;

/** A channel as the grid-full note names it: channel and ship. */
const nameOf = (source: PlayableSource) => `${source.title} · ${source.shipDisplayName}`;

export function usePlaylistActions(store: PlaylistStore = playlistStore): PlaylistActions {
  const { t } = useTranslation();
  const message = useMessage();
  const warn = useCallback(
    (content: string) => void message.warning({ content, duration: LIMITS.warningToastMs / 1000 }),
    [message],
  );
  // Longer than a warning: it names channels and what to do.
  const inform = useCallback((content: string) => void message.info({ content, duration: GRID_FULL_NOTE_S }), [message]);

  return useMemo<PlaylistActions>(
    () => ({
      add(source) {
        let outcome: PlaceOutcome | undefined;
        store.update((s) => {
          outcome = placeInGrid(s.playlist, source, s.gridSize, s.selected);
          return { ...s, playlist: outcome.playlist };
        });
        if (outcome?.full) warn(t('live.playlistFull'));
        else if (outcome?.replaced) inform(t('live.grid.fullReplaced', { channel: nameOf(source), replaced: nameOf(outcome.replaced) }));
      },
      addMany(sources) {
        let cut = false;
        let waiting = 0;
        store.update((s) => {
          const outcome = addManyToPlaylist(s.playlist, sources);
          cut = outcome.cut;
          waiting = outcome.playlist.length - Math.max(s.playlist.length, s.gridSize);
          return { ...s, playlist: outcome.playlist };
        });
        if (cut) warn(t('live.playlistFullGroup'));
        else if (waiting > 0) inform(t('live.grid.fullWaiting', { count: waiting }));
      },
      remove(cameraId) {
        store.update((s) => ({ ...s, playlist: removeFromPlaylist(s.playlist, cameraId) }));
      },
      setGridSize(size) {
        store.update((s) => ({ ...s, gridSize: size }));
      },
      select(cameraId) {
        store.update((s) => ({ ...s, selected: cameraId }));
      },
    }),
    [store, t, warn, inform],
  );
}

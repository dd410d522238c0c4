import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { AppProviders } from '../../app/providers.tsx';
import { createI18n } from '../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import {
  addManyToPlaylist,
  addToPlaylist,
  createPlaylistStore,
  parseStoredPlaylist,
  placeInGrid,
  PLAYLIST_MAX,
  PLAYLIST_STORAGE_KEY,
  removeFromPlaylist,
  usePlaylist,
  usePlaylistActions,
  type PlaylistActions,
  type PlaylistStore,
} from './playlist.ts';
import { source, sources } from '../../shared/test-sources.ts';

function memoryStorage(initial?: string) {
  const items = new Map<string, string>(initial === undefined ? [] : [[PLAYLIST_STORAGE_KEY, initial]]);
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

const ids = (list: readonly { cameraId: string }[]) => list.map((s) => s.cameraId);

describe('addToPlaylist', () => {
  it('appends a new channel', () => {
    const out = addToPlaylist(sources(2), source(3));
    expect(ids(out.playlist)).toEqual(['S1001-C01-1', 'S1001-C02-1', 'S1001-C03-1']);
    expect(out.full).toBe(false);
  });

  it('keeps a channel already in the list where it is, without a warning', () => {
    const list = sources(3);
    const out = addToPlaylist(list, source(2));
    expect(out.playlist).toBe(list);
    expect(out.full).toBe(false);
  });

  it('refuses a 17th channel and says the list is full', () => {
    const list = sources(16);
    const out = addToPlaylist(list, source(17));
    expect(out.playlist).toBe(list);
    expect(out.full).toBe(true);
  });

  it('accepts a channel already playing even when the list is full', () => {
    const out = addToPlaylist(sources(16), source(16));
    expect(out.full).toBe(false);
  });
});

describe('placeInGrid', () => {
  it('takes the next free cell while there is one', () => {
    const out = placeInGrid(sources(3), source(4), 4);
    expect(ids(out.playlist)).toEqual(ids(sources(4)));
    expect(out.replaced).toBeUndefined();
  });

  it('replaces the selected cell when every cell is in use; the replaced channel waits just past the grid', () => {
    const out = placeInGrid(sources(5), source(6), 4, 'S1001-C03-1');
    expect(ids(out.playlist)).toEqual(['S1001-C01-1', 'S1001-C02-1', 'S1001-C06-1', 'S1001-C04-1', 'S1001-C03-1', 'S1001-C05-1']);
    expect(out.replaced?.cameraId).toBe('S1001-C03-1');
  });

  it('with no cell selected (or one no longer shown) replaces the first, the longest shown', () => {
    for (const selected of [undefined, 'S1001-C05-1']) {
      const out = placeInGrid(sources(5), source(6), 4, selected);
      expect(ids(out.playlist).slice(0, 5)).toEqual(['S1001-C06-1', 'S1001-C02-1', 'S1001-C03-1', 'S1001-C04-1', 'S1001-C01-1']);
      expect(out.replaced?.cameraId).toBe('S1001-C01-1');
    }
  });

  it('brings a channel waiting past the grid into view; one in view stays put', () => {
    const out = placeInGrid(sources(6), source(6), 4, 'S1001-C02-1');
    expect(ids(out.playlist)).toEqual(['S1001-C01-1', 'S1001-C06-1', 'S1001-C03-1', 'S1001-C04-1', 'S1001-C02-1', 'S1001-C05-1']);
    const list = sources(6);
    expect(placeInGrid(list, source(3), 4).playlist).toBe(list);
  });

  it('refuses a new channel when the playlist holds 16, even in a smaller grid', () => {
    const list = sources(16);
    expect(placeInGrid(list, source(17), 4)).toEqual({ playlist: list, replaced: undefined, full: true });
  });
});

describe('addManyToPlaylist', () => {
  it('adds a whole group in order when it fits', () => {
    const out = addManyToPlaylist(sources(4), sources(6, 'S2001'));
    expect(out.playlist).toHaveLength(10);
    expect(ids(out.playlist).slice(4)).toEqual(ids(sources(6, 'S2001')));
    expect(out.cut).toBe(false);
  });

  it('adds only the first channels up to 16 and reports the cut', () => {
    const out = addManyToPlaylist(sources(12), sources(8, 'S2002'));
    expect(out.playlist).toHaveLength(PLAYLIST_MAX);
    expect(ids(out.playlist).slice(12)).toEqual(ids(sources(4, 'S2002')));
    expect(out.cut).toBe(true);
  });

  it('skips channels already playing and repeated ones without counting them', () => {
    const out = addManyToPlaylist(sources(15), [source(3), source(1, 'S2001'), source(1, 'S2001')]);
    expect(out.playlist).toHaveLength(16);
    expect(out.cut).toBe(false);
  });

  it('cuts even when nothing could be added to a full list', () => {
    const list = sources(16);
    const out = addManyToPlaylist(list, sources(2, 'S2001'));
    expect(out.playlist).toBe(list);
    expect(out.cut).toBe(true);
  });

  it('reports no cut for a group entirely playing already', () => {
    const list = sources(16);
    expect(addManyToPlaylist(list, sources(3)).cut).toBe(false);
  });
});

describe('removeFromPlaylist', () => {
  it('removes by camera id and keeps the order of the rest', () => {
    expect(ids(removeFromPlaylist(sources(3), 'S1001-C02-1'))).toEqual(['S1001-C01-1', 'S1001-C03-1']);
  });

  it('answers the same list for an unknown camera', () => {
    const list = sources(2);
    expect(removeFromPlaylist(list, 'nope')).toBe(list);
  });
});

describe('parseStoredPlaylist', () => {
  it('defaults to a grid of 4 and no channels', () => {
    expect(parseStoredPlaylist(null)).toEqual({ gridSize: 4, playlist: [] });
    expect(parseStoredPlaylist('not json')).toEqual({ gridSize: 4, playlist: [] });
  });

  it('drops broken entries, duplicates, entries past 16 and an unknown grid size', () => {
    const stored = JSON.stringify({ gridSize: 5, playlist: [source(1), { cameraId: 'x' }, source(1), ...sources(20, 'S2001')] });
    const state = parseStoredPlaylist(stored);
    expect(state.gridSize).toBe(4);
    expect(state.playlist).toHaveLength(16);
    expect(state.playlist[0]?.cameraId).toBe('S1001-C01-1');
    expect(state.playlist[1]?.cameraId).toBe('S2001-C01-1');
  });
});

describe('createPlaylistStore', () => {
  it('writes every change to storage, and a new store (a reload) reads it back', () => {
    const storage = memoryStorage();
    const store = createPlaylistStore(storage);
    store.update((s) => ({ gridSize: 9, playlist: addManyToPlaylist(s.playlist, sources(3)).playlist }));
    const reloaded = createPlaylistStore(storage);
    expect(reloaded.getSnapshot().gridSize).toBe(9);
    expect(ids(reloaded.getSnapshot().playlist)).toEqual(ids(sources(3)));
  });

  it('notifies listeners only of real changes', () => {
    const storage = memoryStorage();
    const store = createPlaylistStore(storage);
    let calls = 0;
    store.subscribe(() => calls++);
    store.update((s) => ({ ...s }));
    expect(calls).toBe(0);
    expect(storage.items.size).toBe(0);
    store.update((s) => ({ ...s, gridSize: 16 }));
    expect(calls).toBe(1);
  });

  it('keeps working when storage throws', () => {
    const store = createPlaylistStore({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    });
    store.update((s) => ({ ...s, playlist: [source(1)] }));
    expect(store.getSnapshot().playlist).toHaveLength(1);
  });
});

describe('usePlaylistActions', () => {
  function renderWith(store: PlaylistStore, language: 'zh-CN' | 'en' = 'zh-CN') {
    const actions: { current?: PlaylistActions } = {};
    function Probe() {
      actions.current = usePlaylistActions(store);
      const { playlist, gridSize } = usePlaylist(store);
      return <output data-testid="probe">{`${gridSize}:${playlist.length}`}</output>;
    }
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
        <Probe />
      </AppProviders>,
    );
    return () => actions.current as PlaylistActions;
  }

  it('warns "只能同时播放16个通道" on a 17th channel', async () => {
    const get = renderWith(createPlaylistStore(memoryStorage()));
    act(() => get().addMany(sources(16)));
    expect(screen.getByTestId('probe').textContent).toBe('4:16');
    expect(screen.queryByText('只能同时播放16个通道')).toBeNull();
    act(() => get().add(source(17)));
    expect(await screen.findByText('只能同时播放16个通道')).toBeTruthy();
    expect(screen.getByTestId('probe').textContent).toBe('4:16');
  });

  it('warns "只能同时播放前16个通道" when a group had to be cut', async () => {
    const get = renderWith(createPlaylistStore(memoryStorage()));
    act(() => get().addMany(sources(10)));
    act(() => get().addMany(sources(8, 'S2002')));
    expect(await screen.findByText('只能同时播放前16个通道')).toBeTruthy();
    expect(screen.getByTestId('probe').textContent).toBe('4:16');
  });

  it('removes a channel and changes the grid size', () => {
    const get = renderWith(createPlaylistStore(memoryStorage()));
    act(() => get().addMany(sources(3)));
    act(() => get().remove('S1001-C02-1'));
    act(() => get().setGridSize(9));
    expect(screen.getByTestId('probe').textContent).toBe('9:2');
  });

  it.each([
    ['zh-CN', '所有窗口已占用：Camera 5 · SHIP S1001 已替换 Camera 2 · SHIP S1001。关闭一个窗口或切换到更多分屏可同时观看'],
    ['en', 'All cells are in use: Camera 5 · SHIP S1001 replaced Camera 2 · SHIP S1001. Close a cell or choose a larger layout to watch both'],
  ] as const)('a 5th double-click in a full 4-cell grid replaces the selected cell and says so (%s)', async (language, text) => {
    const store = createPlaylistStore(memoryStorage());
    const get = renderWith(store, language);
    act(() => get().addMany(sources(4)));
    act(() => get().select('S1001-C02-1'));
    act(() => get().add(source(5)));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(ids(store.getSnapshot().playlist)).toEqual(['S1001-C01-1', 'S1001-C05-1', 'S1001-C03-1', 'S1001-C04-1', 'S1001-C02-1']);
  });

  it.each([
    ['zh-CN', '所有窗口已占用：2 个通道已加入播放列表，关闭窗口或切换到更多分屏后播放'],
    ['en', 'All cells are in use: channels added wait in the playlist (2). Close cells or choose a larger layout to play them'],
  ] as const)('a ship opened into a full grid says its channels wait in the playlist (%s)', async (language, text) => {
    const get = renderWith(createPlaylistStore(memoryStorage()), language);
    act(() => get().addMany(sources(3)));
    act(() => get().addMany(sources(3, 'S1002')));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByTestId('probe').textContent).toBe('4:6');
  });
});

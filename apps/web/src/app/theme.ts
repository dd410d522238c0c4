import { useSyncExternalStore } from 'react';

/** Spec §3 client state: a theme, day by default. */
export type ThemeMode = 'day' | 'night';
export const THEME_MODES: readonly ThemeMode[] = ['day', 'night'];

const STORAGE_KEY = 'ship-cctv.theme';

function readStored(): ThemeMode {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'night' ? 'night' : 'day';
  } catch {
    return 'day'; // storage blocked (privacy mode): the default still works
  }
}

let mode: ThemeMode = typeof localStorage === 'undefined' ? 'day' : readStored();
const listeners = new Set<() => void>();

/** Remembered in localStorage, so it outlives the 1-day language cookie and the session. */
export function setThemeMode(next: ThemeMode): void {
  if (next === mode) return;
  mode = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // not remembered, but switched for this page load
  }
  for (const listener of [...listeners]) listener();
}

export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => mode,
    () => mode,
  );
}

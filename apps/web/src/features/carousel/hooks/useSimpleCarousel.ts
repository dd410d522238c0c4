import { useCallback, useEffect, useMemo, useState } from 'react';
import { type CarouselCell, type CarouselDetail, carouselPages } from '@ship-cctv/protocol';
import { type LocalClock, pauseClock, resizeClock, resumeClock, startClock, stepClock, tickClock } from '../paging.ts';

/** What the player shows, whichever kind of carousel runs it. */
export interface CarouselView {
  /** 0-based page on screen. */
  page: number;
  pageCount: number;
  cells: CarouselCell[];
  /** The next page's cells while they pre-warm (a few seconds before the switch). */
  next: CarouselCell[] | undefined;
  /** When the page turns, on shore's clock corrected by `offsetMs` (null: it does not turn now). */
  switchAt: number | null;
  offsetMs: number;
}

/**
 * A simple carousel runs in this browser: its pages from the detail's cells by layout, turned on
 * this browser's clock; pause, next and previous act here only. The next page mounts
 * `prewarmSeconds` before each switch.
 */
export function useSimpleCarousel(detail: CarouselDetail | undefined) {
  const layout = detail?.carousel.layout ?? 4;
  const dwellMs = detail?.carousel.dwellMs ?? 60_000;
  const prewarmMs = (detail?.prewarmSeconds ?? 0) * 1000;
  const cells = detail?.cells;
  const pages = useMemo(() => carouselPages(cells ?? [], layout), [cells, layout]);
  const [clock, setClock] = useState<LocalClock>();
  // The switch whose pre-warm has begun.
  const [prewarmFor, setPrewarmFor] = useState<number | null>(null);

  // First detail: start on page 1. A later detail (ships came or went): the same page if it still exists.
  useEffect(() => {
    if (!detail) return;
    setClock((c) => (c && c.dwellMs === dwellMs ? resizeClock(c, pages.length, Date.now()) : startClock(pages.length, dwellMs, Date.now())));
  }, [detail, pages.length, dwellMs]);

  const switchAt = clock?.switchAt ?? null;
  useEffect(() => {
    if (switchAt === null) return;
    const left = switchAt - Date.now();
    const warm = setTimeout(() => setPrewarmFor(switchAt), Math.max(0, left - prewarmMs));
    const turn = setTimeout(() => setClock((c) => (c ? tickClock(c, Date.now()) : c)), Math.max(0, left));
    return () => {
      clearTimeout(warm);
      clearTimeout(turn);
    };
  }, [switchAt, prewarmMs]);

  const act = useCallback((change: (c: LocalClock, now: number) => LocalClock) => setClock((c) => (c ? change(c, Date.now()) : c)), []);
  const controls = useMemo(
    () => ({
      next: () => act((c, now) => stepClock(c, 1, now)),
      previous: () => act((c, now) => stepClock(c, -1, now)),
      pause: () => act(pauseClock),
      resume: () => act(resumeClock),
    }),
    [act],
  );

  const page = clock?.page ?? 0;
  const prewarming = switchAt !== null && prewarmFor === switchAt && pages.length > 1;
  const view: CarouselView = {
    page,
    pageCount: pages.length,
    cells: pages[page] ?? [],
    next: prewarming ? pages[(page + 1) % pages.length] : undefined,
    switchAt,
    offsetMs: 0,
  };
  return { view, paused: clock?.pausedLeftMs != null, ...controls };
}

import { useEffect, useState } from 'react';
import { useTaskStatus } from '../api/status.ts';
import { msUntil, msUntilOverdue } from '../paging.ts';
import type { CarouselView } from './useSimpleCarousel.ts';

/** After a request that brought nothing newer, the next one waits this long. */
const LATE_RETRY_MS = 3_000;

/**
 * A task follows shore: the page of its latest status (`task/status/{id}`, then STOMP
 * `/carousel/{id}`), counted down to `switchAt` on shore's clock. If no message has come
 * `OVERDUE_GRACE_MS` after the switch, the status is asked again. The next page mounts
 * `prewarmSeconds` before the switch.
 */
export function useTaskCarousel(id: string) {
  const { latest, error, isLoading, refetch, dataUpdatedAt } = useTaskStatus(id);
  const status = latest?.status;
  const offsetMs = latest?.offsetMs ?? 0;
  const switchAt = status && status.state !== 'stopped' ? status.switchAt : null;
  const [prewarmFor, setPrewarmFor] = useState<number | null>(null);
  const [askedFor, setAskedFor] = useState<{ switchAt: number; at: number } | null>(null);

  // Pre-warm: the next page's streams start a few seconds before the switch.
  const prewarmMs = (status?.prewarmSeconds ?? 0) * 1000;
  useEffect(() => {
    if (switchAt === null || status?.state !== 'running') return;
    const timer = setTimeout(() => setPrewarmFor(switchAt), Math.max(0, msUntil(switchAt, offsetMs, Date.now()) - prewarmMs));
    return () => clearTimeout(timer);
  }, [switchAt, offsetMs, prewarmMs, status?.state]);

  // Shore silent past the switch (a message lost, the socket down): ask.
  useEffect(() => {
    if (switchAt === null) return;
    const wait = msUntilOverdue(switchAt, offsetMs, Date.now());
    const delay = wait > 0 ? wait : askedFor?.switchAt === switchAt ? LATE_RETRY_MS : 0;
    const timer = setTimeout(() => {
      void refetch().finally(() => setAskedFor({ switchAt, at: Date.now() }));
    }, delay);
    return () => clearTimeout(timer);
  }, [switchAt, offsetMs, askedFor, refetch, dataUpdatedAt]);

  const running = status?.state === 'running';
  const view: CarouselView = {
    page: status?.page ?? 0,
    pageCount: status?.pageCount ?? 0,
    cells: running ? status.cells : [],
    next: running && switchAt !== null && prewarmFor === switchAt ? status.next : undefined,
    switchAt,
    offsetMs,
  };
  return { view, status, error, isLoading };
}

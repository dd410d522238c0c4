import { useEffect } from 'react';
import { dest, type PictureEvent, type StillAnswer } from '@ship-cctv/protocol';
import { type PictureEvents, useDestination } from '../../../lib/realtime/index.ts';
import { useStillQuery } from '../api/stills.ts';
import { RETRY_MS } from '../still-mode.ts';

export interface StillState {
  answer: StillAnswer | undefined;
  error: Error | null;
  /** The latest STOMP event of the picture on its way, if any (progress, stored, failed). */
  transfer: PictureEvent | undefined;
}

/**
 * A cell's stills: asks shore for the latest still, again after `nextInMs` (a failed request after
 * RETRY_MS), and at once when the picture on its way reaches shore or fails (STOMP
 * /pictures/{shipName}), so the new picture shows as soon as it is there.
 */
export function useStill(cameraId: string, templateId: number | undefined, shipName: string): StillState {
  const query = useStillQuery(cameraId, templateId);
  const { data, error, refetch, dataUpdatedAt, errorUpdatedAt } = query;
  const delay = data && dataUpdatedAt >= errorUpdatedAt ? data.nextInMs : error ? RETRY_MS : undefined;
  useEffect(() => {
    if (delay === undefined) return;
    const timer = setTimeout(() => void refetch(), delay);
    return () => clearTimeout(timer);
  }, [delay, dataUpdatedAt, errorUpdatedAt, refetch]);

  const events = useDestination<PictureEvents>(dest.pictures(shipName));
  const pendingId = data?.pending?.pictureId;
  const transfer = pendingId ? events?.get(pendingId) : undefined;
  const arrived = transfer?.event === 'stored' || transfer?.event === 'failed';
  useEffect(() => {
    if (arrived) void refetch();
  }, [arrived, pendingId, refetch]);

  return { answer: data, error, transfer };
}

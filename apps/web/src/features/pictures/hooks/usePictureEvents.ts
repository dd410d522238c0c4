import { dest, type PictureEvent } from '@ship-cctv/protocol';
import { type PictureEvents, useDestination } from '../../../lib/realtime/index.ts';

const NONE: PictureEvents = new Map();

/** The latest event of each picture of a ship on its way to shore (STOMP /pictures/{shipName}). */
export function usePictureEvents(shipName: string | undefined): PictureEvents {
  return useDestination<PictureEvents>(shipName ? dest.pictures(shipName) : undefined) ?? NONE;
}

/** What a picture's latest event means for the page. */
export type TransferView =
  | { kind: 'none' }
  | { kind: 'busy'; text: 'requested' | 'queued' }
  | { kind: 'progress'; bytes: number; total: number }
  | { kind: 'waiting'; bytes: number; total: number }
  | { kind: 'stored'; total: number }
  | { kind: 'failed'; code: string; message: string };

export function transferView(event: PictureEvent | undefined): TransferView {
  if (!event) return { kind: 'none' };
  const total = event.total ?? 0;
  switch (event.event) {
    case 'taken':
      return { kind: 'progress', bytes: 0, total };
    case 'queued':
      return { kind: 'busy', text: 'queued' };
    case 'progress':
      return { kind: 'progress', bytes: event.bytes ?? 0, total };
    case 'waiting':
      return { kind: 'waiting', bytes: event.bytes ?? 0, total };
    case 'stored':
      return { kind: 'stored', total: event.total ?? event.bytes ?? 0 };
    case 'failed':
      return { kind: 'failed', code: event.code ?? 'failed', message: event.message ?? '' };
  }
}

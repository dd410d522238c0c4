import type { SourceType } from './constants.ts';
import type { RecorderStorage } from './link/control.ts';

/** STOMP destinations are built here, never typed by hand (spec §7 "Live channel"). */
export const dest = {
  shipStatus: (shipName: string) => `/shipStatus/${shipName}`,
  mediaList: (clientInstanceId: string) => `/mediaList/${clientInstanceId}`,
  /** Pictures of a ship on their way to shore (PictureEvent). */
  pictures: (shipName: string) => `/pictures/${shipName}`,
  /** Where a running carousel task is (CarouselStatus), at each page and state change. */
  carousel: (carouselId: string) => `/carousel/${carouselId}`,
  /** Who steers a PTZ camera (PtzEvent), at each command. */
  ptz: (cameraId: string) => `/ptz/${cameraId}`,
  /** A ship's data budget reached 80 % or 100 % of a cap (BudgetNoticeMessage). */
  budget: (shipName: string) => `/budget/${shipName}`,
  /** Events found on a ship, as each reaches shore, is acknowledged or deleted (EventNotice). */
  events: (shipName: string) => `/events/${shipName}`,
} as const;

/** The same builders under the name the events contract uses. */
export const DESTINATIONS = dest;

export type ParsedDestination =
  | { kind: 'shipStatus'; shipName: string }
  | { kind: 'pictures'; shipName: string }
  | { kind: 'mediaList'; instanceId: string }
  | { kind: 'carousel'; carouselId: string }
  | { kind: 'ptz'; cameraId: string }
  | { kind: 'budget'; shipName: string }
  | { kind: 'events'; shipName: string };

export function parseDestination(destination: string): ParsedDestination | undefined {
  const m = /^\/(shipStatus|mediaList|pictures|carousel|ptz|budget|events)\/(.+)$/.exec(destination);
  if (!m || !m[2] || m[2].includes('/')) return undefined;
  if (m[1] === 'shipStatus') return { kind: 'shipStatus', shipName: m[2] };
  if (m[1] === 'pictures') return { kind: 'pictures', shipName: m[2] };
  if (m[1] === 'budget') return { kind: 'budget', shipName: m[2] };
  if (m[1] === 'events') return { kind: 'events', shipName: m[2] };
  if (m[1] === 'carousel') return { kind: 'carousel', carouselId: m[2] };
  if (m[1] === 'ptz') return { kind: 'ptz', cameraId: m[2] };
  return { kind: 'mediaList', instanceId: m[2] };
}

/** `/shipStatus/{shipName}` message body. */
export interface ShipStatusMessage {
  /** Link type in upper case (VSAT, FBB, FOURTHG, IRIDIUM, OFFLINE, …). */
  status: string;
  /** Signal quality 0–100, or -1 when unknown. */
  quality: number;
  udpConnectionStats: { duplex: 'BOTH' | 'UP' | 'DOWN' | 'NONE' };
  /** What the ship's recorder can keep, as its agent last reported it (absent: not reported). */
  storage?: RecorderStorage;
}

/**
 * `/mediaList/{clientInstanceId}` message body. With `remoteRecord` null it is a live status
 * (`status` ONLINE/OFFLINE); with `remoteRecord` set it is a recording status, and `recorder`
 * says whose recorder (the ship's own, or the shore recorder with `argId` = record config id).
 */
export interface MediaListMessage {
  sourceId: string;
  status: 'ONLINE' | 'OFFLINE';
  remoteRecord: boolean | null;
  remoteStart: number | null;
  remoteEnd: number | null;
  argId: string | null;
  recorder?: 'ship' | 'shore';
}

const LANDSEA: ReadonlySet<string> = new Set<SourceType>(['xplus', 'xplus-remote']);

/**
 * Where a camera's status is published and what it is called at its source (spec §3): landsea
 * sources name their instance after `cctvInstanceId=` (up to a bar) and the camera after
 * `iosChannelId=`; every other source uses the ship name as instance and the value after `cameraId=`.
 */
export function cameraSource(sourceType: string, other: string, shipName: string): { instanceId: string; cameraName: string } {
  if (LANDSEA.has(sourceType)) {
    const instance = /cctvInstanceId=([^|]*)/.exec(other)?.[1] ?? '';
    const channel = /iosChannelId=([^|]*)/.exec(other)?.[1] ?? '';
    return { instanceId: instance || shipName, cameraName: channel };
  }
  return { instanceId: shipName, cameraName: /cameraId=([^|;&]*)/.exec(other)?.[1] ?? '' };
}

import { LINK_TYPES, type LinkType, type ShipStatusMessage } from '@ship-cctv/protocol';

/** What a ship shows before any status message arrives (spec §3: OFFLINE, signal -1). */
export const INITIAL_LINK: LinkType = 'OFFLINE';
export const UNKNOWN_QUALITY = -1;

export interface ShipLink {
  /** Upper-cased link name; one of LINK_TYPES when the ship reports a known link. */
  linkType: string;
  quality: number;
}

/**
 * Spec §4: the link is the status upper-cased with line breaks removed; a ship whose UDP
 * connection is duplex BOTH while the status says OFFLINE is in fact on VSAT.
 */
export function normaliseShipStatus(message: ShipStatusMessage | undefined): ShipLink {
  if (!message) return { linkType: INITIAL_LINK, quality: UNKNOWN_QUALITY };
  let linkType = String(message.status ?? '').replace(/[\r\n]+/g, '').trim().toUpperCase() || INITIAL_LINK;
  if (linkType === 'OFFLINE' && message.udpConnectionStats?.duplex === 'BOTH') linkType = 'VSAT';
  const quality = typeof message.quality === 'number' ? message.quality : UNKNOWN_QUALITY;
  return { linkType, quality };
}

const KNOWN: ReadonlySet<string> = new Set(LINK_TYPES);

/** Narrows a link name to a spec value, for picking its icon; anything else counts as UNKNOWN. */
export function toKnownLink(linkType: string): LinkType {
  return KNOWN.has(linkType) ? (linkType as LinkType) : 'UNKNOWN';
}

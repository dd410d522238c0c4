import type { ShipLinkBytes } from '@ship-cctv/protocol';

/** A ship with open cells, as the play grid knows it. */
export interface OpenShip {
  shipId: string;
  shipDisplayName: string;
  /** The ship's own organisation (the statistics are asked per organisation). */
  orgId: string;
}

export interface ShipUplink {
  shipId: string;
  name: string;
  connected: boolean;
  /** Ship-to-shore bytes for video (live and playback) since the server started. */
  bytes: number;
  /** Their rate now, in kbit/s; null while the server is still measuring. */
  kbps: number | null;
}

export interface UplinkUsage {
  ships: ShipUplink[];
  totalBytes: number;
  /** Sum of the known rates; null when none is known yet. */
  totalKbps: number | null;
}

/** Bytes per second to kbit/s (the unit satellite links are sold in). */
export function toKbps(bytesPerSecond: number): number {
  return (bytesPerSecond * 8) / 1000;
}

/** The ships of the open cells, each once, in cell order. */
export function openShips(cells: readonly OpenShip[]): OpenShip[] {
  const seen = new Map<string, OpenShip>();
  for (const cell of cells) {
    if (!seen.has(cell.shipId)) seen.set(cell.shipId, { shipId: cell.shipId, shipDisplayName: cell.shipDisplayName, orgId: cell.orgId });
  }
  return [...seen.values()];
}

/** The open ships' ids by organisation: one statistics request each. */
export function shipIdsByOrg(ships: readonly OpenShip[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const ship of ships) out.set(ship.orgId, [...(out.get(ship.orgId) ?? []), ship.shipId]);
  return out;
}

/**
 * What the open cells cost the ships' satellite links: per ship of the open cells, the uplink
 * bytes of video (live + playback) and their rate. Ships the server did not answer for (not the
 * organisation's, or no longer the user's) are left out.
 */
export function uplinkUsage(answered: readonly ShipLinkBytes[], ships: readonly OpenShip[]): UplinkUsage {
  const byId = new Map(answered.map((ship) => [ship.shipId, ship]));
  const rows = ships.flatMap((open): ShipUplink[] => {
    const ship = byId.get(open.shipId);
    if (!ship) return [];
    return [
      {
        shipId: ship.shipId,
        name: open.shipDisplayName || ship.shipName,
        connected: ship.connected,
        bytes: ship.up.live + ship.up.playback,
        kbps: ship.upRate ? toKbps(ship.upRate.live + ship.upRate.playback) : null,
      },
    ];
  });
  const known = rows.filter((row) => row.kbps !== null);
  return {
    ships: rows,
    totalBytes: rows.reduce((sum, row) => sum + row.bytes, 0),
    totalKbps: known.length > 0 ? known.reduce((sum, row) => sum + (row.kbps ?? 0), 0) : null,
  };
}

/** Link volumes are shown as every screen shows bytes (lib/format-bytes.ts). */
export { formatBytes } from '../../lib/format-bytes.ts';

/** 123.456 → "123.5 kbit/s"; from 10,000 kbit/s on in Mbit/s. */
export function formatKbps(kbps: number, locale: string): string {
  if (kbps >= 10_000) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(kbps / 1000)} Mbit/s`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: kbps < 100 ? 1 : 0 }).format(kbps)} kbit/s`;
}

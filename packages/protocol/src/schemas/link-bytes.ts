import { Type, type Static } from 'typebox';
import type { LinkPurpose } from '../link/common.ts';

/**
 * Bytes that crossed a ship's satellite link, by purpose (the agent link's frame kinds; see
 * `shipcctv_link_bytes_total` on /metrics, which these figures are read from).
 */
export const LinkPurposeFigures = Type.Object({
  control: Type.Number(),
  live: Type.Number(),
  playback: Type.Number(),
  pictures: Type.Number(),
  talk: Type.Number(),
  backfill: Type.Number(),
  events: Type.Number(),
});
export type LinkPurposeFigures = Static<typeof LinkPurposeFigures>;
// Every purpose of the link has a field, and no field is something else.
type SamePurposes<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const purposesCovered: SamePurposes<keyof LinkPurposeFigures, LinkPurpose> = true;
void purposesCovered;

export const ShipLinkBytes = Type.Object({
  shipId: Type.String(),
  shipName: Type.String(),
  /** Whether the ship's agent is connected to this server instance now. */
  connected: Type.Boolean(),
  /** Ship to shore, since `since`. */
  up: LinkPurposeFigures,
  /** Shore to ship, since `since`. */
  down: LinkPurposeFigures,
  /** Bytes per second over the last `rateWindowSeconds` (null until the server has a sample to compare). */
  upRate: Type.Union([LinkPurposeFigures, Type.Null()]),
  downRate: Type.Union([LinkPurposeFigures, Type.Null()]),
});
export type ShipLinkBytes = Static<typeof ShipLinkBytes>;

export const LinkBytesStatistics = Type.Object({
  orgId: Type.String(),
  /** Epoch ms at which counting started (the server's start): the byte figures are totals since then. */
  since: Type.Integer(),
  /** Epoch ms at which the figures were read. */
  sampledAt: Type.Integer(),
  rateWindowSeconds: Type.Number(),
  /** Ships of the organisation and its sub-organisations the user may see (or those asked for). */
  ships: Type.Array(ShipLinkBytes),
});
export type LinkBytesStatistics = Static<typeof LinkBytesStatistics>;

export const LinkBytesQuery = Type.Object({
  /** Comma-separated ship ids to limit the answer to (the ships of the open cells, say). */
  ships: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type LinkBytesQuery = Static<typeof LinkBytesQuery>;

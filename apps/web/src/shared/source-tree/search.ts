import type { ChannelSearchResult, Ship } from '@ship-cctv/protocol';
import type { ShipChannels } from './tree.ts';

/**
 * The source tree's search reaches ships not expanded yet: the server searches the organisation's
 * channels by name, and the first ships with matches are opened the usual way (wait time, then
 * channels, then status subscriptions). Ships beyond that stay in the filtered list, closed, so a
 * broad query on a fleet of hundreds does not load every ship at once.
 */
export const SEARCH_OPENS_SHIPS = 20;

/** Quiet time after the last key press before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The text as the server is asked for it (trimmed); empty means no server search. */
export function searchText(input: string): string {
  return input.trim();
}

/** Ships the server found matching channels on, in the server's (tree) order. */
export function shipsWithMatches(result: ChannelSearchResult | undefined): string[] {
  return result ? [...new Set(result.matches.map((match) => match.shipId))] : [];
}

/**
 * Which of the matching ships to load now: the first `limit` of them, in tree order, leaving out
 * those already loaded, loading or failed (a failed one loads again when the operator expands it).
 */
export function shipsToOpen(
  matchingShipIds: readonly string[],
  ships: readonly Ship[],
  loaded: ReadonlyMap<string, ShipChannels>,
  limit = SEARCH_OPENS_SHIPS,
): Ship[] {
  const byId = new Map(ships.map((ship) => [ship.id, ship]));
  return matchingShipIds
    .map((id) => byId.get(id))
    .filter((ship): ship is Ship => ship !== undefined)
    .slice(0, limit)
    .filter((ship) => !loaded.has(ship.id));
}

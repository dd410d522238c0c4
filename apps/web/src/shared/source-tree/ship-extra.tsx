import { createContext, useContext, type ComponentType } from 'react';
import type { Ship } from '@ship-cctv/protocol';

/**
 * What a feature adds after a ship's name in the tree (the data budget's badge): the app shell
 * provides it, so the tree knows no feature and the feature's code loads when a ship row first
 * draws it.
 */
export type ShipExtra = ComponentType<{ ship: Ship }>;

const ShipExtraContext = createContext<ShipExtra | null>(null);

export const ShipExtraProvider = ShipExtraContext.Provider;

export function useShipExtra(): ShipExtra | null {
  return useContext(ShipExtraContext);
}

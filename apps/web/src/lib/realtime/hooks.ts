import { useCallback, useRef, useSyncExternalStore } from 'react';
import { dest, type ShipStatusMessage } from '@ship-cctv/protocol';
import { realtime } from './connection.ts';
import { normaliseShipStatus, type ShipLink } from './link.ts';
import { OFFLINE_CAMERA, type CameraStatus, type MediaListState } from './reduce.ts';
import type { DestinationStore } from './store.ts';

const noop = () => undefined;

/**
 * The latest value of a STOMP destination (for /mediaList the per-camera map), `undefined` until
 * the first message. Subscribes while at least one component reads it. No destination: nothing.
 */
export function useDestination<T>(destination: string | undefined, store: DestinationStore = realtime.store): T | undefined {
  const subscribe = useCallback(
    (onChange: () => void) => (destination ? store.subscribe(destination, onChange) : noop),
    [destination, store],
  );
  const getSnapshot = () => (destination ? (store.getSnapshot(destination) as T | undefined) : undefined);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** A ship's link type (spec §4 normalisation) and signal quality, live. */
export function useShipStatus(shipName: string | undefined, store?: DestinationStore): ShipLink {
  const message = useDestination<ShipStatusMessage>(shipName ? dest.shipStatus(shipName) : undefined, store);
  const { linkType, quality } = normaliseShipStatus(message);
  // A fresh object each render is fine: its fields are primitives and callers read them directly.
  return { linkType, quality };
}

/**
 * The links of several ships, live, from the same STOMP state the source tree shows (name → link).
 * The map is the same object until one of the ships' messages changes.
 */
export function useShipLinks(shipNames: readonly string[], store: DestinationStore = realtime.store): ReadonlyMap<string, ShipLink> {
  const key = shipNames.join('\u0000');
  const subscribe = useCallback(
    (onChange: () => void) => {
      const offs = key ? key.split('\u0000').map((name) => store.subscribe(dest.shipStatus(name), onChange)) : [];
      return () => {
        for (const off of offs) off();
      };
    },
    [key, store],
  );
  const last = useRef<{ key: string; messages: unknown[]; links: ReadonlyMap<string, ShipLink> } | undefined>(undefined);
  const getSnapshot = () => {
    const names = key ? key.split('\u0000') : [];
    const messages = names.map((name) => store.getSnapshot(dest.shipStatus(name)));
    const cached = last.current;
    if (cached?.key === key && cached.messages.every((m, i) => m === messages[i])) return cached.links;
    const links = new Map(names.map((name, i) => [name, normaliseShipStatus(messages[i] as ShipStatusMessage | undefined)]));
    last.current = { key, messages, links };
    return links;
  };
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** A camera's online and recording state, live; offline until its instance reports it. */
export function useCameraStatus(instanceId: string | undefined, cameraId: string, store?: DestinationStore): CameraStatus {
  const state = useDestination<MediaListState>(instanceId ? dest.mediaList(instanceId) : undefined, store);
  return state?.get(cameraId) ?? OFFLINE_CAMERA;
}

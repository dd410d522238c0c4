import { useCallback, useSyncExternalStore } from 'react';
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

/** A camera's online and recording state, live; offline until its instance reports it. */
export function useCameraStatus(instanceId: string | undefined, cameraId: string, store?: DestinationStore): CameraStatus {
  const state = useDestination<MediaListState>(instanceId ? dest.mediaList(instanceId) : undefined, store);
  return state?.get(cameraId) ?? OFFLINE_CAMERA;
}

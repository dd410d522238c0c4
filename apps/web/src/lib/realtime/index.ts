/** The tab's live channel (spec §7 socket): one STOMP connection, a destination store, hooks. */
export { realtime, brokerUrl, errorFrameCode, RealtimeConnection } from './connection.ts';
export { useDestination, useShipStatus, useShipLinks, useCameraStatus } from './hooks.ts';
export { normaliseShipStatus, toKnownLink, INITIAL_LINK, UNKNOWN_QUALITY, type ShipLink } from './link.ts';
export { reduceMediaList, reducePictureEvents, OFFLINE_CAMERA, type CameraStatus, type MediaListState, type PictureEvents } from './reduce.ts';
export { DestinationStore, type StompSubscriber } from './store.ts';

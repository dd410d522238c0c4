import { type DecoderPrefix, type DefinitionModel, type VideoCodec, ENCODES_AV1_CAPABILITY } from '@ship-cctv/protocol';
import type { AgentGateway, OpenStreamResult, StreamHandler } from '../../core/ship-link/index.ts';
import type { RelayedStreamAbout } from '../../core/media/viewer.ts';

/** One live stream as any instance names it: the registry key, the camera and its definitions. */
export interface LiveStreamSpec {
  key: string;
  shipId: string;
  cameraId: string;
  requested: DefinitionModel;
  lowest: DefinitionModel;
  audio: boolean;
  /**
   * The stream of an H.265 camera for viewers that decode H.265: asked with `passThrough`, so the
   * camera's own pictures go up untouched, beside the H.264 stream of the same definition that the
   * other viewers share (key `…+hevc`).
   */
  hevc?: boolean;
}

/**
 * A live source's handler of its stream. A stream relayed from the ship's owner is asked there, by
 * the owner's own choice for every viewer of it on any instance: `relayed` says what it was asked
 * and what the ship said, just before the `live.started` that carries the same camera codec.
 */
export interface LiveStreamHandler extends StreamHandler<'live'> {
  relayed?(about: RelayedStreamAbout): void;
}

/**
 * Where a live source gets its stream: the ship's agent link on this instance, or (in a cluster)
 * the instance that owns the ship. Either way the source sees the same thing: a `live` stream it
 * sends live.start/live.stop on and that delivers the encoder's bytes in order.
 */
export interface LiveOrigin {
  /**
   * `relayed`: the stream comes from another instance, whose taps (the shore recorder) see it; this
   * one's do not. `decoders`: what every viewer of the source decodes (the owner of a relayed
   * stream chooses its codec with it; on the ship's link the source has chosen already).
   */
  open(spec: LiveStreamSpec, handler: LiveStreamHandler, decoders?: ReadonlySet<DecoderPrefix>): OpenStreamResult<'live'> & { relayed?: boolean };
  /**
   * Whether the ship's agent encodes `codec` (its hello said so). Absent, or a ship not known here
   * (an origin that relays from another instance): H.264 only.
   */
  encodes?(shipId: string, codec: VideoCodec): boolean;
}

/** Whether the agent of a ship whose link this instance holds encodes `codec` (every agent: H.264). */
export const agentEncodes = (gateway: AgentGateway, shipId: string, codec: VideoCodec): boolean =>
  codec === 'h264' || (gateway.get(shipId)?.offers(ENCODES_AV1_CAPABILITY) ?? false);

/** The single-node origin: the ship's link on this instance. */
export const linkOrigin = (gateway: AgentGateway): LiveOrigin => ({
  open: (spec, handler) => gateway.openStream(spec.shipId, 'live', handler),
  encodes: (shipId, codec) => agentEncodes(gateway, shipId, codec),
});

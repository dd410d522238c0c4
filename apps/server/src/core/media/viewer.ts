import type { DecoderPrefix, MediaServerMessage, VideoCodec } from '@ship-cctv/protocol';
import type { InitSegment, MediaFragment } from './fmp4.ts';
import type { StreamConsumer } from './stream-hub.ts';

/**
 * A viewer as a stream sees it, live or played back from the ship: JSON events, and the consumer
 * the hub sends fMP4 bytes to. The media socket (the viewer module) is one.
 */
export interface MediaViewer {
  sendJson(message: MediaServerMessage): void;
  readonly consumer: StreamConsumer<InitSegment, MediaFragment>;
  /** Codec prefixes the viewer decodes (its play's `decoders`); absent: H.264 only. */
  readonly decoders?: ReadonlySet<DecoderPrefix>;
  /**
   * A viewer that relays a live stream to another instance: told, before each codec event, what
   * the stream was asked for and what the ship said of it, so the other instance's stream says the
   * same to its viewers and chooses as this one does.
   */
  relay?(about: RelayedStreamAbout): void;
}

/** What the owner of a ship tells a relaying instance about a live stream (see MediaViewer.relay). */
export interface RelayedStreamAbout {
  /** The codec the stream was asked in, and whether it asked to pass the camera's H.265 through. */
  codec: VideoCodec;
  passThrough: boolean;
  /** What the ship said (live.started): the camera's codec, whether it transcodes. */
  cameraCodec?: 'h264' | 'h265';
  transcoded?: boolean;
  /** The codecs the ship's agent encodes (its hello). */
  encodes: VideoCodec[];
}

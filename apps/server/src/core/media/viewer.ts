import type { DecoderPrefix, MediaServerMessage } from '@ship-cctv/protocol';
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
}

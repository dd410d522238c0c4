import { DECODER_PREFIXES, type DecoderPrefix } from '@ship-cctv/protocol';

/**
 * What a viewer's browser decodes, said in the media socket's `play` (`decoders`): the server sends
 * a definition's own codec only when every viewer of the stream decodes it, H.264 otherwise.
 */

/** A representative stream of each prefix, as asked of the browser (the satellite tier's level and more). */
export const PROBE_CODECS: Readonly<Record<DecoderPrefix, string>> = {
  avc1: 'avc1.64001f',
  hvc1: 'hvc1.1.6.L93.B0',
  hev1: 'hev1.1.6.L93.B0',
  av01: 'av01.0.04M.08',
};

/** The part of WebCodecs' VideoDecoder the probe uses. */
export interface VideoDecoderProbe {
  isConfigSupported(config: { codec: string; codedWidth?: number; codedHeight?: number }): Promise<{ supported?: boolean }>;
}

/** The part of MediaSource the probe uses. */
export interface MediaSourceProbe {
  isTypeSupported(mime: string): boolean;
}

/**
 * The prefixes WebCodecs decodes here (the FramePlayer's way), asked of `VideoDecoder.isConfigSupported`
 * at 640×360. H.264 is always listed: the server falls back to it whatever the answer.
 */
export async function webCodecsDecoders(decoder: VideoDecoderProbe | undefined = (globalThis as { VideoDecoder?: VideoDecoderProbe }).VideoDecoder): Promise<DecoderPrefix[]> {
  if (!decoder) return ['avc1'];
  const answers = await Promise.all(
    DECODER_PREFIXES.map(async (prefix) => {
      try {
        const { supported } = await decoder.isConfigSupported({ codec: PROBE_CODECS[prefix], codedWidth: 640, codedHeight: 360 });
        return supported === true ? prefix : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return withH264(answers);
}

/** The prefixes MSE plays here (the MsePlayer's way), asked of `MediaSource.isTypeSupported`. */
export function mseDecoders(source: MediaSourceProbe | undefined): DecoderPrefix[] {
  if (!source) return ['avc1'];
  return withH264(DECODER_PREFIXES.map((prefix) => (source.isTypeSupported(`video/mp4; codecs="${PROBE_CODECS[prefix]}"`) ? prefix : undefined)));
}

function withH264(found: ReadonlyArray<DecoderPrefix | undefined>): DecoderPrefix[] {
  const list = found.filter((p): p is DecoderPrefix => p !== undefined);
  return list.includes('avc1') ? list : ['avc1', ...list];
}

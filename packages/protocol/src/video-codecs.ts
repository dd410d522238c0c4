/**
 * Video codecs across the product: what a definition template asks the ship to encode, what a
 * viewer's browser says it decodes (the media socket's `play` `decoders`), and the agent's hello
 * capability that says it encodes AV1. Plain values, no schema: the web app's first screen reads them.
 */

/** What a definition template asks the ship's encoder for. */
export const VIDEO_CODECS = ['h264', 'av1'] as const;
export type VideoCodec = (typeof VIDEO_CODECS)[number];

export function isVideoCodec(value: unknown): value is VideoCodec {
  return VIDEO_CODECS.some((c) => c === value);
}

/**
 * Codec prefixes (RFC 6381 sample entries) a viewer can say it decodes. `hvc1` and `hev1` are the
 * two ways H.265 travels in MP4 (parameter sets in the sample entry, or in the stream).
 */
export const DECODER_PREFIXES = ['avc1', 'hvc1', 'hev1', 'av01'] as const;
export type DecoderPrefix = (typeof DECODER_PREFIXES)[number];

/** At most this many entries in a play's `decoders`; each at most DECODER_ENTRY_MAX_CHARS. */
export const DECODERS_MAX_ITEMS = 16;
export const DECODER_ENTRY_MAX_CHARS = 32;

/**
 * The prefixes a viewer decodes, from its play's `decoders`: entries this version does not know
 * are left out (a newer page may list more); a missing list means H.264 only (pages from before
 * the list). H.264 is always in: every stream falls back to it.
 */
export function viewerDecoders(decoders: readonly string[] | undefined): ReadonlySet<DecoderPrefix> {
  const known = new Set<DecoderPrefix>(['avc1']);
  for (const d of decoders ?? []) {
    const prefix = DECODER_PREFIXES.find((p) => p === d);
    if (prefix) known.add(prefix);
  }
  return known;
}

/** Whether a viewer decodes H.265 as it comes from a camera (either way it travels in MP4). */
export function decodesHevc(decoders: ReadonlySet<DecoderPrefix> | undefined): boolean {
  return decoders?.has('hvc1') === true || decoders?.has('hev1') === true;
}

/** The decoder prefix a stream of this codec needs. */
export const DECODER_OF: Readonly<Record<VideoCodec, DecoderPrefix>> = { h264: 'avc1', av1: 'av01' };

/**
 * The hello capability of an agent that encodes AV1 (libsvtav1). Not a message group (LINK_KINDS):
 * a shore that does not know it keeps it aside, and an agent without it gets H.264.
 */
export const ENCODES_AV1_CAPABILITY = 'live.encode.av1';

/**
 * Definitions at or below this bitrate are the satellite tier: the lowest, for FleetBroadband and
 * Iridium links (320×180 at a few frames a second). The link policies' `satellite` level picks it;
 * `lowest` picks the smallest definition above it, as before the tier existed.
 */
export const SATELLITE_TIER_MAX_KBPS = 32;

/** The codec a `codec` event's mime names, as the cell shows it: `H.264`, `H.265`, `AV1`, or the raw entry. */
export function codecLabel(mime: string): string {
  const first = /codecs="([^",]*)/i.exec(mime)?.[1]?.trim() ?? '';
  const entry = first.split('.')[0]?.toLowerCase() ?? '';
  if (entry === 'avc1' || entry === 'avc3') return 'H.264';
  if (entry === 'hvc1' || entry === 'hev1') return 'H.265';
  if (entry === 'av01') return 'AV1';
  return entry || '?';
}

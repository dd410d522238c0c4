/** Samples at 48 kHz of one Opus frame, by the TOC byte's configuration (RFC 6716 §3.1). */
function frameSamples(config: number): number {
  if (config < 12) return [480, 960, 1920, 2880][config % 4] ?? 960; // SILK: 10/20/40/60 ms
  if (config < 16) return [480, 960][config % 2] ?? 960; // hybrid: 10/20 ms
  return [120, 240, 480, 960][config % 4] ?? 960; // CELT: 2.5/5/10/20 ms
}

/** How many 48 kHz samples an Opus packet holds (0 for an empty or malformed one). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return frames * frameSamples(toc >> 3);
}

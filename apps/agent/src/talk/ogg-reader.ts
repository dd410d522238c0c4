/**
 * The packets of an Ogg stream (one logical stream), in order, and each page's granule position:
 * how tests and the benchmark read back a talk file or take the Opus packets out of what
 * `ffmpeg -c:a libopus -f ogg` wrote. Checks capture patterns, not checksums.
 */
export function readOggPackets(bytes: Uint8Array): { packets: Uint8Array[]; granules: bigint[] } {
  const packets: Uint8Array[] = [];
  const granules: bigint[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let partial: Uint8Array[] = [];
  let at = 0;
  while (at + 27 <= bytes.length) {
    if (bytes[at] !== 0x4f || bytes[at + 1] !== 0x67 || bytes[at + 2] !== 0x67 || bytes[at + 3] !== 0x53) throw new Error(`no Ogg page at byte ${at}`);
    granules.push(view.getBigUint64(at + 6, true));
    const count = bytes[at + 26] ?? 0;
    let body = at + 27 + count;
    for (let i = 0; i < count; i++) {
      const len = bytes[at + 27 + i] ?? 0;
      partial.push(bytes.subarray(body, body + len));
      body += len;
      if (len < 255) {
        packets.push(joinParts(partial));
        partial = [];
      }
    }
    at = body;
  }
  return { packets, granules };
}

function joinParts(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

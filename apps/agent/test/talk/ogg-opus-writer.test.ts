import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OggOpusWriter, oggCrc } from '../../src/talk/ogg-opus-writer.ts';
import { readOggPackets } from '../../src/talk/ogg-reader.ts';
import { opusPacketSamples } from '../../src/talk/opus-packet.ts';
import { ffmpegOgg, measureAudio, opusPackets } from './opus-fixture.ts';

describe('OggOpusWriter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ogg-opus-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('computes the Ogg checksum libopus/ffmpeg wrote on a page', async () => {
    const ogg = await ffmpegOgg(1);
    const pageLength = 27 + (ogg[26] ?? 0) + [...ogg.subarray(27, 27 + (ogg[26] ?? 0))].reduce((n, l) => n + l, 0);
    const page = ogg.slice(0, pageLength);
    const written = new DataView(page.buffer).getUint32(22, true);
    new DataView(page.buffer).setUint32(22, 0, true);
    expect(oggCrc(page)).toBe(written);
  });

  it('counts 60 ms in each 60 ms packet of a 12 kbit/s VoIP stream', async () => {
    const packets = await opusPackets(1);
    expect(packets.length).toBeGreaterThanOrEqual(16);
    for (const p of packets) expect(opusPacketSamples(p)).toBe(2880);
  });

  it('writes packets ffmpeg reads back with their duration and energy', async () => {
    const packets = await opusPackets(3);
    const writer = new OggOpusWriter();
    const parts = [writer.head()];
    for (let i = 0; i < packets.length; i += 3) parts.push(writer.packets(packets.slice(i, i + 3)));
    parts.push(writer.end());
    const path = join(dir, 'talk.ogg');
    await writeFile(path, Buffer.concat(parts));

    const back = readOggPackets(new Uint8Array(Buffer.concat(parts)));
    expect(back.packets.length).toBe(packets.length + 2);
    expect(back.granules.at(-1)).toBe(BigInt(packets.length * 2880));

    const measured = await measureAudio(path);
    expect(measured.seconds).toBeGreaterThan(2.8);
    expect(measured.seconds).toBeLessThan(3.3);
    // A full-scale-ish sine: far above silence (-91 dB).
    expect(measured.meanDb).toBeGreaterThan(-30);
  });

  it('splits a batch that needs more than 255 lacing values over pages', () => {
    const writer = new OggOpusWriter(7);
    writer.head();
    const big = Array.from({ length: 4 }, () => new Uint8Array(300 * 255 / 4).fill(0xf8));
    const bytes = writer.packets(big);
    const back = readOggPackets(bytes);
    expect(back.packets.map((p) => p.length)).toEqual(big.map((p) => p.length));
    expect(back.granules.length).toBeGreaterThan(1);
  });
});

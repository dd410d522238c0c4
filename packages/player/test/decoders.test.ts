import type { PlayCommand } from '@ship-cctv/protocol';
import { describe, expect, it, vi } from 'vitest';
import { mseDecoders, webCodecsDecoders } from '../src/decoders.ts';
import { FramePlayer, fallbackPrefixes } from '../src/frames/frame-player.ts';
import type { FrameSinkDeps } from '../src/frames/frame-sink.ts';
import { MsePlayer } from '../src/mse-player.ts';
import { FakeMediaSource, FakeSocket, makeVideo, playerTestEnvironment } from './fakes.ts';

const COMMAND: PlayCommand = { type: 'play', mode: 'live', cameraId: 'S1001-C01-1', templateId: 12 };
const env = playerTestEnvironment();

/** A browser's WebCodecs that decodes the codecs whose strings start with one of `prefixes`. */
const webCodecs = (...prefixes: string[]) => ({
  asked: [] as string[],
  async isConfigSupported(config: { codec: string }) {
    this.asked.push(config.codec);
    if (config.codec.startsWith('hev1')) throw new TypeError('not a valid codec string here');
    return { supported: prefixes.some((p) => config.codec.startsWith(p)) };
  },
});

/** A MediaSource that plays the codecs whose strings start with one of `prefixes`. */
const mediaSourceOf = (...prefixes: string[]) =>
  class extends FakeMediaSource {
    static override isTypeSupported(mime: string): boolean {
      return prefixes.some((p) => mime.includes(`codecs="${p}`));
    }
  };

const noSink = {} as FrameSinkDeps;

describe('what a viewer says it decodes', () => {
  it('asks WebCodecs for each codec (a refusal or a throw is a no), always listing H.264', async () => {
    const decoder = webCodecs('avc1', 'av01');
    await expect(webCodecsDecoders(decoder)).resolves.toEqual(['avc1', 'av01']);
    expect(decoder.asked).toEqual(['avc1.64001f', 'hvc1.1.6.L93.B0', 'hev1.1.6.L93.B0', 'av01.0.04M.08']);
    // A browser that claims nothing still gets H.264, which every stream falls back to.
    await expect(webCodecsDecoders(webCodecs())).resolves.toEqual(['avc1']);
    await expect(webCodecsDecoders(undefined)).resolves.toEqual(['avc1']);
  });

  it('asks MSE with isTypeSupported', () => {
    expect(mseDecoders({ isTypeSupported: (mime) => mime.includes('avc1') || mime.includes('hvc1') })).toEqual(['avc1', 'hvc1']);
    expect(mseDecoders({ isTypeSupported: () => false })).toEqual(['avc1']);
    expect(mseDecoders(undefined)).toEqual(['avc1']);
  });

  it('MsePlayer puts what MSE plays here into its play: av01 only where MSE takes AV1', () => {
    for (const [impl, expected] of [
      [mediaSourceOf('avc1'), ['avc1']],
      [mediaSourceOf('avc1', 'av01'), ['avc1', 'av01']],
    ] as const) {
      const { video } = makeVideo();
      const player = env.keep(new MsePlayer(video, { url: '/media', WebSocketImpl: FakeSocket, MediaSourceImpl: impl, reconnect: { minMs: 500, maxMs: 4000 } }));
      player.play(COMMAND);
      FakeSocket.instances.at(-1)?.open();
      expect(FakeSocket.instances.at(-1)?.sent[0]).toEqual({ ...COMMAND, decoders: expected });
    }
  });

  it('MsePlayer says it in a ship-end playback too: hvc1 where MSE takes H.265', () => {
    const range = { type: 'play', mode: 'shipPlayback', cameraId: 'S1001-C01-1', start: 1_000, end: 2_000, speed: 1 } as const;
    for (const [impl, expected] of [
      [mediaSourceOf('avc1'), ['avc1']],
      [mediaSourceOf('avc1', 'hvc1'), ['avc1', 'hvc1']],
    ] as const) {
      const { video } = makeVideo();
      const player = env.keep(new MsePlayer(video, { url: '/media', WebSocketImpl: FakeSocket, MediaSourceImpl: impl, reconnect: { minMs: 500, maxMs: 4000 } }));
      player.play(range);
      FakeSocket.instances.at(-1)?.open();
      expect(FakeSocket.instances.at(-1)?.sent[0]).toEqual({ ...range, decoders: expected });
    }
  });

  it('FramePlayer puts what WebCodecs decodes into its play, and every reconnect says it again', async () => {
    const { video } = makeVideo();
    const player = env.keep(new FramePlayer(video, { url: '/media', WebSocketImpl: FakeSocket, sinkDeps: noSink, decoders: ['avc1', 'av01'], reconnect: { minMs: 500, maxMs: 4000 } }));
    player.play(COMMAND);
    const first = FakeSocket.instances.at(-1);
    first?.open();
    expect(first?.sent[0]).toEqual({ ...COMMAND, decoders: ['avc1', 'av01'] });
    first?.serverClose();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances.at(-1)?.open();
    expect(FakeSocket.instances.at(-1)?.sent[0]).toEqual({ ...COMMAND, decoders: ['avc1', 'av01'] });
  });

  it('a decoder that fails on AV1 or H.265 asks again without that codec (both ways H.265 travels), never without H.264', () => {
    expect(fallbackPrefixes('av01.0.04M.08')).toEqual(['av01']);
    expect(fallbackPrefixes('hvc1.1.6.L60.90')).toEqual(['hvc1', 'hev1']);
    expect(fallbackPrefixes('hev1.1.6.L93.B0')).toEqual(['hvc1', 'hev1']);
    expect(fallbackPrefixes('avc1.42c01e')).toEqual([]);
    expect(fallbackPrefixes(undefined)).toEqual([]);
  });
});

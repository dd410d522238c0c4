import { OpusDecoder } from 'opus-decoder';
import { SPEAKER_RATE } from './pcm-decoder.ts';

/**
 * Decodes a talk's Opus packets to PCM at SPEAKER_RATE (libopus in WebAssembly, `opus-decoder`,
 * decoding at 16 kHz itself: no resampler) as each message arrives — nothing held back, no process
 * to start. Packets that come while the decoder is still loading wait for it, in order.
 */
export class OpusPcmDecoder {
  private readonly decoder = new OpusDecoder({ channels: 1, sampleRate: SPEAKER_RATE });
  private waiting: Uint8Array[][] | undefined = [];
  private ended = false;

  constructor(
    private readonly onPcm: (pcm: Int16Array) => void,
    private readonly onError: (message: string) => void,
  ) {
    this.decoder.ready.then(
      () => {
        const waiting = this.waiting ?? [];
        this.waiting = undefined;
        if (this.ended) return this.decoder.free();
        for (const packets of waiting) this.decode(packets);
      },
      (err: unknown) => onError(`the Opus decoder did not load: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  decode(packets: readonly Uint8Array[]): void {
    if (this.ended || packets.length === 0) return;
    if (this.waiting) {
      this.waiting.push([...packets]);
      return;
    }
    const { channelData, samplesDecoded, errors } = this.decoder.decodeFrames([...packets]);
    if (errors.length > 0) this.onError(`${errors.length} Opus packet(s) could not be decoded: ${errors[0]?.message ?? ''}`);
    const mono = channelData[0];
    if (!mono || samplesDecoded === 0) return;
    const pcm = new Int16Array(samplesDecoded);
    for (let i = 0; i < samplesDecoded; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round((mono[i] ?? 0) * 32767)));
    this.onPcm(pcm);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.waiting) this.decoder.free();
  }
}

import type { TalkFormat } from '@ship-cctv/protocol';
import { packTalkPackets } from '@ship-cctv/protocol';

/**
 * The talk's encoding: Opus, mono, 12 kbit/s, 60 ms frames, VoIP mode with DTX (silence sends
 * almost nothing). 12 kbit/s is wideband speech that stays easy to understand through a ship's
 * speaker at ≈ 94 KB a minute; 60 ms frames keep the per-packet overhead low, and three of them
 * go in one message (180 ms), so framing costs ~4 % rather than outweighing the voice.
 */
export const TALK_BITRATE = 12_000;
export const PACKETS_PER_MESSAGE = 3;
const OPUS_CONFIG = { codec: 'opus', numberOfChannels: 1, bitrate: TALK_BITRATE, opus: { application: 'voip', frameDuration: 60_000, usedtx: true } };
/** The MediaRecorder fallback cuts its WebM this often. */
const RECORDER_SLICE_MS = 180;

/** Chromium's reader of a track's raw frames (not in TypeScript's DOM library). */
declare class MediaStreamTrackProcessor {
  constructor(init: { track: MediaStreamTrack });
  readonly readable: ReadableStream<AudioData>;
}

type Scope = { AudioEncoder?: unknown; MediaStreamTrackProcessor?: unknown; MediaRecorder?: unknown };

/** Which way this browser sends a talk: WebCodecs Opus packets, the MediaRecorder's WebM, or not at all. */
export function voiceFormat(scope: Scope = globalThis as Scope): TalkFormat | undefined {
  if (typeof scope.AudioEncoder === 'function' && typeof scope.MediaStreamTrackProcessor === 'function') return 'opus';
  if (typeof scope.MediaRecorder === 'function') return 'webm';
  return undefined;
}

/**
 * The microphone while a talk lasts: its voice encoded (voiceFormat) and handed on a message at a
 * time, and its level for the meter (Web Audio AnalyserNode).
 */
export class VoiceCapture {
  private readonly context: AudioContext;
  private readonly analyser: AnalyserNode;
  private readonly samples: Float32Array<ArrayBuffer>;
  private stopped = false;
  private stopEncoding: () => void = () => undefined;

  private constructor(
    private readonly stream: MediaStream,
    readonly format: TalkFormat,
    private readonly onVoice: (payload: Uint8Array<ArrayBuffer>) => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.context = new AudioContext();
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 1024;
    this.samples = new Float32Array(this.analyser.fftSize);
    this.context.createMediaStreamSource(stream).connect(this.analyser);
  }

  /** Asks for the microphone (its errors are getUserMedia's DOMExceptions) and starts encoding. */
  static async open(format: TalkFormat, onVoice: (payload: Uint8Array<ArrayBuffer>) => void, onError: (err: unknown) => void): Promise<VoiceCapture> {
    if (typeof navigator.mediaDevices?.getUserMedia !== 'function') throw new DOMException('no mediaDevices', 'NotSupportedError');
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
    const capture = new VoiceCapture(stream, format, onVoice, onError);
    if (format === 'opus') capture.encodeOpus();
    else capture.record();
    return capture;
  }

  /** The microphone's level now, 0 (silence, −60 dBFS and under) to 1 (full scale). */
  level(): number {
    if (this.stopped) return 0;
    this.analyser.getFloatTimeDomainData(this.samples);
    let sum = 0;
    for (const s of this.samples) sum += s * s;
    const db = 20 * Math.log10(Math.sqrt(sum / this.samples.length) || 1e-6);
    return Math.min(1, Math.max(0, (db + 60) / 60));
  }

  /** Ends the capture: what is encoded is sent, the microphone is let go. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopEncoding();
    for (const t of this.stream.getTracks()) t.stop();
    void this.context.close().catch(() => undefined);
  }

  private encodeOpus(): void {
    const [track] = this.stream.getAudioTracks();
    if (!track) throw new DOMException('no audio track', 'NotFoundError');
    const reader = new MediaStreamTrackProcessor({ track }).readable.getReader();
    let pending: Uint8Array[] = [];
    const flush = () => {
      if (pending.length > 0) this.onVoice(packTalkPackets(pending));
      pending = [];
    };
    let encoder: AudioEncoder | undefined;
    this.stopEncoding = () => {
      flush();
      void reader.cancel().catch(() => undefined);
      if (encoder?.state === 'configured') encoder.close();
    };
    const pump = async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.stopped) {
          value?.close();
          return;
        }
        if (!encoder) {
          encoder = new AudioEncoder({
            output: (chunk) => {
              const packet = new Uint8Array(chunk.byteLength);
              chunk.copyTo(packet);
              pending.push(packet);
              if (pending.length >= PACKETS_PER_MESSAGE) flush();
            },
            error: (err) => this.onError(err),
          });
          encoder.configure({ ...OPUS_CONFIG, sampleRate: value.sampleRate } as AudioEncoderConfig);
        }
        encoder.encode(value);
        value.close();
      }
    };
    pump().catch((err: unknown) => {
      if (!this.stopped) this.onError(err);
    });
  }

  private record(): void {
    const mimeType = MediaRecorder.isTypeSupported('audio/webm;codecs=opus') ? 'audio/webm;codecs=opus' : undefined;
    if (!mimeType) throw new DOMException('no WebM/Opus recorder', 'NotSupportedError');
    const recorder = new MediaRecorder(this.stream, { mimeType, audioBitsPerSecond: TALK_BITRATE });
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) void e.data.arrayBuffer().then((b) => this.onVoice(new Uint8Array(b)));
    };
    recorder.onerror = (e) => this.onError(e);
    recorder.start(RECORDER_SLICE_MS);
    this.stopEncoding = () => {
      if (recorder.state !== 'inactive') recorder.stop();
    };
  }
}

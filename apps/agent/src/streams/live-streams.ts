import { type AgentStreamMessage, BINARY_KIND, type EncodeSpec, type ShoreStreamMessage, encodeStreamFrame } from '@ship-cctv/protocol';
import { type CameraConfig, isSynthetic } from '../cameras.ts';
import { Encoder } from './encoder.ts';
import { type ProbedVideo, findFont, syntheticCameraArgs, urlCameraArgs } from './ffmpeg-args.ts';
import { probeVideo } from './probe.ts';

/** The agent's socket to shore, as the streams use it. */
export interface StreamLink {
  sendJson(message: AgentStreamMessage): void;
  sendBinary(frame: Uint8Array): void;
  /** Bytes queued on the socket, not yet on the wire: grows when the satellite uplink is full. */
  bufferedAmount(): number;
}

export interface LiveStreamsOptions {
  firstByteTimeoutMs?: number;
  /** How often the uplink queue is reported to shore while a stream runs. */
  reportEveryMs?: number;
  /**
   * Seconds of stream bytes the socket may hold before the agent gives up on the stream: it stops
   * the encoder and says so, rather than hold unbounded memory or cut the MP4 at a random byte.
   */
  maxQueueSeconds?: number;
  probe?: (url: string) => Promise<ProbedVideo | undefined>;
  fontFile?: string | undefined;
}

interface Running {
  streamId: number;
  cameraId: string;
  encode: EncodeSpec;
  encoder: Encoder;
}

const MIN_QUEUE_BOUND = 1024 * 1024;

/**
 * Live streams on the ship: started and stopped by shore (`live.start` / `live.stop`), one ffmpeg
 * each, their output sent up the link as binary frames tagged with the stream id. Every second
 * it reports the uplink queue, from which shore decides to lower the definition.
 */
export class LiveStreams {
  private readonly cameras: Map<string, CameraConfig>;
  private readonly running = new Map<number, Running>();
  private link: StreamLink | undefined;
  private reportTimer: NodeJS.Timeout | undefined;
  private readonly opts: Required<Omit<LiveStreamsOptions, 'fontFile'>> & { fontFile: string | undefined };

  constructor(cameras: readonly CameraConfig[], opts: LiveStreamsOptions = {}) {
    this.cameras = new Map(cameras.map((c) => [c.cameraId, c]));
    this.opts = {
      firstByteTimeoutMs: opts.firstByteTimeoutMs ?? 20_000,
      reportEveryMs: opts.reportEveryMs ?? 1_000,
      maxQueueSeconds: opts.maxQueueSeconds ?? 8,
      probe: opts.probe ?? ((url) => probeVideo(url)),
      fontFile: opts.fontFile ?? findFont(),
    };
  }

  get activeStreamIds(): number[] {
    return [...this.running.keys()];
  }

  /** The socket is up: streams may start. */
  attach(link: StreamLink): void {
    this.link = link;
  }

  /** The socket is gone: every stream stops (shore asks again after reconnecting). */
  detach(): void {
    this.link = undefined;
    void this.stopAll();
  }

  async stopAll(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    this.updateReporting();
    await Promise.all(all.map((r) => r.encoder.stop()));
  }

  handle(msg: ShoreStreamMessage): void {
    if (msg.type === 'live.stop') {
      const r = this.running.get(msg.streamId);
      if (!r) return;
      this.running.delete(msg.streamId);
      this.updateReporting();
      void r.encoder.stop();
      return;
    }
    void this.start(msg.streamId, msg.cameraId, msg.encode);
  }

  private async start(streamId: number, cameraId: string, encode: EncodeSpec): Promise<void> {
    const camera = this.cameras.get(cameraId);
    if (!camera) {
      this.link?.sendJson({ type: 'live.failed', streamId, message: `camera ${cameraId} is not configured on this ship` });
      return;
    }
    if (this.running.has(streamId)) return;
    const args = isSynthetic(camera)
      ? syntheticCameraArgs({ cameraName: camera.name ?? cameraId, encode, startEpochMs: Date.now(), fontFile: this.opts.fontFile, realtime: true })
      : urlCameraArgs({ url: camera.source, encode, probe: await this.opts.probe(camera.source) });
    if (!this.link) return;
    const encoder = new Encoder(args, {
      firstByteTimeoutMs: this.opts.firstByteTimeoutMs,
      onFirstByte: () => this.link?.sendJson({ type: 'live.started', streamId }),
      onData: (chunk) => this.forward(streamId, chunk),
      onExit: (exit) => {
        if (this.running.get(streamId)?.encoder !== encoder) return;
        this.running.delete(streamId);
        this.updateReporting();
        if (exit.outcome === 'failed') this.link?.sendJson({ type: 'live.failed', streamId, message: exit.message });
        else if (exit.outcome === 'ended') this.link?.sendJson({ type: 'live.ended', streamId, reason: exit.message });
      },
    });
    this.running.set(streamId, { streamId, cameraId, encode, encoder });
    this.updateReporting();
  }

  private forward(streamId: number, chunk: Buffer): void {
    const link = this.link;
    const r = this.running.get(streamId);
    if (!link || !r) return;
    const bound = Math.max(MIN_QUEUE_BOUND, (this.totalKbps() * 125) * this.opts.maxQueueSeconds);
    if (link.bufferedAmount() > bound) {
      this.running.delete(streamId);
      this.updateReporting();
      void r.encoder.stop();
      link.sendJson({ type: 'live.ended', streamId, reason: `uplink congested: ${link.bufferedAmount()} bytes waiting` });
      return;
    }
    link.sendBinary(encodeStreamFrame(BINARY_KIND.live, streamId, chunk));
  }

  private totalKbps(): number {
    let sum = 0;
    for (const r of this.running.values()) sum += r.encode.bitrateKbps;
    return sum;
  }

  private updateReporting(): void {
    if (this.running.size > 0 && !this.reportTimer) {
      this.reportTimer = setInterval(() => this.report(), this.opts.reportEveryMs);
      this.reportTimer.unref();
    } else if (this.running.size === 0 && this.reportTimer) {
      clearInterval(this.reportTimer);
      this.reportTimer = undefined;
    }
  }

  private report(): void {
    const link = this.link;
    if (!link) return;
    const bufferedBytes = link.bufferedAmount();
    const bytesPerMs = (this.totalKbps() * 1000) / 8 / 1000;
    link.sendJson({ type: 'link.queue', bufferedBytes, queuedMs: bytesPerMs > 0 ? Math.round(bufferedBytes / bytesPerMs) : 0 });
  }
}

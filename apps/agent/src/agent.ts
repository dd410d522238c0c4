import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import {
  backoffDelay,
  AGENT_HEADERS,
  BINARY_KIND,
  AGENT_LINK_MIN_VERSION,
  LINK_ACK_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  type CameraState,
  type LinkReport,
  PATHS,
  type ShoreMessage,
} from '@ship-cctv/protocol';
import { AgentLinkRouter } from './agent-link/router.ts';
import { type CameraConfig, initialCameraState, isSynthetic, probeCamera } from './cameras.ts';
import { LiveStreams, type LiveStreamsOptions } from './media/live-streams.ts';
import { SpeakerFeeds } from './media/speaker-feed.ts';
import { PlaybackStreams, type PlaybackStreamsOptions } from './playback/playback-streams.ts';
import { ShipRecorder, type ShipRecorderOptions } from './recorder/ship-recorder.ts';
import { CameraSessions } from './media/camera-session.ts';
import { ShipPictures, type ShipPicturesOptions } from './pictures/ship-pictures.ts';
import { ShipPtz, type ShipPtzOptions } from './ptz/ship-ptz.ts';
import { ShipTalk, type ShipTalkOptions } from './talk/ship-talk.ts';
import { type UplinkClass, UplinkScheduler } from './uplink/scheduler.ts';

export const AGENT_VERSION = '0.1.0';

export interface AgentConfig {
  /** Shore server base URL, e.g. ws://shore.example:8080 (in the demo: the link emulator's port). */
  shoreUrl: string;
  shipId: string;
  key: string;
  cameras: CameraConfig[];
}

/** What the ship's modem says about the link; the demo drives it from the link emulator's schedule. */
export interface LinkStatusSource {
  current(): LinkReport;
  onChange(listener: (report: LinkReport) => void): () => void;
}

export interface AgentOptions {
  /** First reconnect delay; doubles up to maxBackoffMs, less up to 20 % at random (backoffDelay). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often URL cameras' health is read (from their sessions: no probe). Default 2 s. */
  probeEveryMs?: number;
  /** Shore pings when either direction was quiet for 5 s; this long without a word from shore, the agent redials. */
  silenceTimeoutMs?: number;
  probe?: (url: string) => Promise<boolean>;
  streams?: LiveStreamsOptions;
  /** The ship recorder (data directory, retention); without a data directory URL cameras are not recorded. */
  recorder?: ShipRecorderOptions;
  playback?: PlaybackStreamsOptions;
  /** The ship's pictures (kept under the recorder's data directory unless given one of their own). */
  pictures?: ShipPicturesOptions;
  /** Talkback: where the voice is played (ShipSpeaker) and kept (the recorder's data directory unless given). */
  talk?: ShipTalkOptions;
  /** The ship's PTZ cameras (presets kept under the recorder's data directory unless given one of their own). */
  ptz?: ShipPtzOptions;
}

export interface AgentEvents {
  connected: [];
  disconnected: [reason: string];
  message: [ShoreMessage];
  /** Shore refused the upgrade (HTTP status: unknown ship or wrong key). */
  rejected: [status: number];
  /** Shore refused what the agent said (`error`): an unsupported link version, or a message it could not take. */
  refused: [code: string, message: string];
  /** Something from shore could not be delivered (for the log). */
  dropped: [reason: string];
}

/**
 * The ship edge agent: dials out to shore (ships sit behind satellite NAT), authenticates with its
 * ship key, reports link and camera state, and reconnects with capped backoff, resuming by sending
 * its whole state again in `hello`.
 */
export class ShipAgent extends EventEmitter<AgentEvents> {
  private ws: WebSocket | undefined;
  /** Everything sent on the current link, by priority (uplink/scheduler.ts). */
  private uplink: UplinkScheduler | undefined;
  private stopped = true;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  private lastHeard = 0;
  private unsubscribeLink: (() => void) | undefined;
  private readonly cameras = new Map<string, CameraState>();
  private readonly opts: Required<Omit<AgentOptions, 'streams' | 'recorder' | 'playback' | 'pictures' | 'talk' | 'ptz'>>;
  /** Live streams shore asked for; they run only while the socket is up. */
  readonly streams: LiveStreams;
  /** The ship's own recordings: kept whether or not the link is up. */
  readonly recorder: ShipRecorder;
  /** One session per URL camera, shared by its recorder and live streams (camera-session.ts). */
  readonly sessions = new CameraSessions();
  /**
   * The ship's speaker, per camera: PCM pushed into `speakerFeeds.get(cameraId)` (s16le mono
   * 16 kHz) is heard in that synthetic camera's live sound (speaker-feed.ts).
   */
  readonly speakerFeeds = new SpeakerFeeds();
  private sessionHolds: (() => void)[] = [];
  /** Playbacks of the ship's recordings shore asked for; they run only while the socket is up. */
  readonly playback: PlaybackStreams;
  /** Pictures taken and kept on the ship, sent to shore from a durable outbox. */
  readonly pictures: ShipPictures;
  /** Talkback: the operator's voice to a file per talk and to the ship's speaker (useSpeaker). */
  readonly talk: ShipTalk;
  /** The PTZ cameras and their presets (kind `ptz` is handled when there is one). */
  readonly ptz: ShipPtz;
  /**
   * Delivers shore's messages and frames to the handler of their kind. Its kinds are the agent's
   * capabilities in hello: register a handler before start().
   */
  readonly router = new AgentLinkRouter();
  /** The link protocol version shore chose in its welcome (on the current connection). */
  protocol: number | undefined;

  constructor(
    readonly config: AgentConfig,
    private readonly link: LinkStatusSource,
    opts: AgentOptions = {},
  ) {
    super();
    this.opts = {
      minBackoffMs: opts.minBackoffMs ?? 1_000,
      maxBackoffMs: opts.maxBackoffMs ?? 30_000,
      probeEveryMs: opts.probeEveryMs ?? 2_000,
      silenceTimeoutMs: opts.silenceTimeoutMs ?? 30_000,
      // A camera is online when its session's pictures flow; only one the session cannot carry (H.265) is probed.
      probe: opts.probe ?? ((url) => (this.sessions.get(url).unsupported ? probeCamera(url) : Promise.resolve(this.sessions.health(url)?.online ?? false))),
    };
    this.ptz = new ShipPtz(config.cameras, { ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}), ...opts.ptz });
    this.streams = new LiveStreams(config.cameras, {
      sessions: this.sessions,
      speakerFeeds: this.speakerFeeds,
      ptz: (id) => this.ptz.synthetic(id),
      ...opts.streams,
    });
    this.recorder = new ShipRecorder(config.cameras, { sessions: this.sessions, ...opts.recorder });
    this.playback = new PlaybackStreams(this.recorder, {
      // Live and playback share the socket: the bound covers both (8 s of their bitrate, at least live's own bound).
      queueLimitBytes: (playbackKbps) => Math.max(this.streams.queueLimitBytes(), (this.streams.totalKbps() + playbackKbps) * 1000),
      ...opts.playback,
    });
    this.pictures = new ShipPictures(config.cameras, this.recorder, this.sessions, {
      ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}),
      ptzStill: (id, width, height, at) => this.ptz.stillStage(id, width, height, at),
      ...opts.pictures,
    });
    // The operator's voice plays on the ship's speaker: for a synthetic camera, its own sound (so
    // the operator hears it come back over the link); a test may pass a speaker of its own.
    const speaker = { play: (cameraId: string, pcm: Int16Array) => this.speakerFeeds.get(cameraId).push(pcm) };
    this.talk = new ShipTalk(new Set(config.cameras.map((c) => c.cameraId)), {
      ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}),
      speaker,
      ...opts.talk,
    });
    this.recorder.on('recording', (cameraId, recording, since) => {
      const before = this.cameras.get(cameraId);
      if (before) this.setCamera({ ...before, recording, recordingSince: since });
    });
    const now = Date.now();
    for (const c of config.cameras) this.cameras.set(c.cameraId, initialCameraState(c, now));

    this.router.handle('live', { message: (msg) => this.streams.handle(msg) });
    this.router.handle('playback', {
      message: (msg) => (msg.type === 'vod.query' ? this.send(this.recorder.query(msg)) : this.playback.handle(msg)),
    });
    this.router.handle('pictures', this.pictures);
    this.router.handle('talk', this.talk);
    if (this.ptz.any) this.router.handle('ptz', this.ptz.handler((msg) => this.send(msg)));
    this.router.on('message', (msg) => this.emit('message', msg));
    this.router.on('control', (msg) => {
      if (msg.type === 'welcome') {
        this.protocol = msg.protocol;
        // Shore acknowledges what it receives: keep a round trip's worth in flight, the rest in priority order here.
        if (msg.protocol >= LINK_ACK_VERSION) this.uplink?.useWindow();
      } else if (msg.type === 'link.ack') this.uplink?.acknowledged(msg.bytes);
      else this.emit('refused', msg.code, msg.message);
    });
    this.router.on('dropped', (reason) => this.emit('dropped', reason));
  }

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  cameraState(cameraId: string): CameraState | undefined {
    return this.cameras.get(cameraId);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribeLink = this.link.onChange((report) => this.send({ type: 'link', ...report }));
    // Every URL camera's session stays open while the agent runs: its health is known and a live
    // view starts from the running session whether or not the camera is recorded.
    this.sessionHolds = this.config.cameras.filter((c) => !isSynthetic(c)).map((c) => this.sessions.get(c.source).subscribe(() => undefined));
    this.recorder.start();
    this.pictures.start();
    this.probeTimer = setInterval(() => void this.probeAll(), this.opts.probeEveryMs);
    this.probeTimer.unref();
    void this.probeAll();
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.probeTimer);
    clearInterval(this.silenceTimer);
    this.unsubscribeLink?.();
    await Promise.all([this.streams.stopAll(), this.playback.stopAll(), this.recorder.stop(), this.pictures.stop(), this.talk.stopAll()]);
    for (const release of this.sessionHolds.splice(0)) release();
    this.ptz.close();
    await this.sessions.stopAll();
    const ws = this.ws;
    this.ws = undefined;
    this.uplink?.close();
    this.uplink = undefined;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'agent stopping');
        setTimeout(() => {
          ws.terminate();
          resolve();
        }, 2_000).unref();
      });
    }
  }

  /** Updates a camera's state and reports it when it changed. */
  setCamera(state: CameraState): void {
    const before = this.cameras.get(state.cameraId);
    if (!before) return;
    this.cameras.set(state.cameraId, state);
    if (before.online !== state.online || before.recording !== state.recording || before.recordingSince !== state.recordingSince) {
      this.send({ type: 'camera', ...state });
    }
  }

  private connect(): void {
    if (this.stopped) return;
    const url = new URL(PATHS.agentLink, this.config.shoreUrl);
    const ws = new WebSocket(url, {
      headers: {
        [AGENT_HEADERS.shipId]: this.config.shipId,
        [AGENT_HEADERS.authorization]: `Ship ${this.config.key}`,
        [AGENT_HEADERS.protocol]: `${AGENT_LINK_MIN_VERSION}-${AGENT_LINK_VERSION}`,
      },
      handshakeTimeout: 30_000,
    });
    this.ws = ws;
    const heard = () => (this.lastHeard = Date.now());
    ws.on('ping', heard);
    ws.on('open', () => {
      heard();
      this.attempt = 0;
      const uplink = new UplinkScheduler({
        write: (data) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(data, { binary: typeof data !== 'string' });
        },
        buffered: () => ws.bufferedAmount,
      });
      this.uplink = uplink;
      // Stream messages are control; stream bytes go in their own class, gated on what goes before them.
      const linkFor = (cls: UplinkClass, kind: number) => ({
        sendJson: (m: AgentMessage) => this.send(m),
        sendBinary: (frame: Uint8Array) => uplink.send(cls, frame),
        bufferedAmount: () => uplink.bytesAhead(cls),
        discard: (streamId: number) => void uplink.discardStream(kind, streamId),
      });
      this.streams.attach(linkFor('live', BINARY_KIND.live));
      this.playback.attach(linkFor('playback', BINARY_KIND.playback));
      this.pictures.attach({ sendJson: (m) => this.send(m), sendBinary: (frame) => uplink.send('pictures', frame) });
      this.talk.attach({ sendJson: (m) => this.send(m) });
      clearInterval(this.silenceTimer);
      this.silenceTimer = setInterval(() => {
        if (Date.now() - this.lastHeard > this.opts.silenceTimeoutMs) ws.terminate();
      }, Math.min(5_000, this.opts.silenceTimeoutMs));
      this.silenceTimer.unref();
      this.send({
        type: 'hello',
        protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION },
        agentVersion: AGENT_VERSION,
        capabilities: this.router.capabilities,
        link: this.link.current(),
        cameras: [...this.cameras.values()],
      });
      this.emit('connected');
    });
    ws.on('message', (data, isBinary) => {
      heard();
      this.router.receive(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data), isBinary);
    });
    ws.on('unexpected-response', (_req, res) => {
      this.emit('rejected', res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => undefined); // 'close' follows and schedules the retry
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.uplink?.close();
      this.uplink = undefined;
      this.protocol = undefined;
      clearInterval(this.silenceTimer);
      this.streams.detach();
      this.playback.detach();
      this.pictures.detach();
      this.talk.detach();
      this.emit('disconnected', `${code} ${reason.toString()}`.trim());
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, { minMs: this.opts.minBackoffMs, maxMs: this.opts.maxBackoffMs });
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private send(msg: AgentMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.uplink?.send('control', JSON.stringify(msg));
  }

  private async probeAll(): Promise<void> {
    await Promise.all(
      this.config.cameras
        .filter((c) => !isSynthetic(c))
        .map(async (c) => {
          const online = await this.opts.probe(c.source);
          const before = this.cameras.get(c.cameraId);
          if (before) this.setCamera({ ...before, online });
        }),
    );
  }
}

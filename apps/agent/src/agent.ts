import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import {
  BACKFILL_TRANSCODE_CAPABILITY,
  ENCODES_AV1_CAPABILITY,
  EVENTS_HOLD_CAPABILITY,
  RedialPlan,
  AGENT_HEADERS,
  BINARY_KIND,
  AGENT_LINK_MIN_VERSION,
  LINK_ACK_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  type CameraEventSettings,
  type CameraState,
  type LinkReport,
  PATHS,
  type RecorderStorage,
  type ShoreMessage,
} from '@ship-cctv/protocol';
import { AgentLinkRouter } from './agent-link/router.ts';
import type { CameraKind } from './camera-source.ts';
import { CameraSources } from './camera-sources.ts';
import type { CameraConfig } from './cameras.ts';
import { LiveStreams, type LiveStreamsOptions } from './media/live-streams.ts';
import { BackfillSender, type BackfillSenderOptions } from './backfill/backfill-sender.ts';
import { PlaybackStreams, type PlaybackStreamsOptions } from './playback/playback-streams.ts';
import { ShipRecorder, type ShipRecorderOptions } from './recorder/ship-recorder.ts';
import { CameraSessions } from './media/camera-session.ts';
import { ShipEvents, type ShipEventsOptions } from './events/outbox/index.ts';
import { ShipPictures, type ShipPicturesOptions } from './pictures/ship-pictures.ts';
import { ShipPtz } from './ptz/ship-ptz.ts';
import { ShipTalk, type ShipTalkOptions } from './talk/ship-talk.ts';
import { type EventAnalysis, type EventAnalysisOptions, type EventSink, startEventAnalysis } from './events/analyser/index.ts';
import { LinkMeter } from './uplink/link-meter.ts';
import { pingShore } from './uplink/link-pings.ts';
import { type UplinkClass, UplinkScheduler } from './uplink/scheduler.ts';
import type { UrlCameraOptions } from './url-camera.ts';

export const AGENT_VERSION = '0.1.0';

export interface AgentConfig {
  /** Shore server base URL, e.g. ws://shore.example:8080 (in the demo: the link emulator's port). */
  shoreUrl: string;
  shipId: string;
  key: string;
  cameras: CameraConfig[];
}

/**
 * The link's kind as the ship knows it: the modem's telemetry, or the agent's configuration on a
 * ship without it (the simulator drives it from its link schedule). What the link does — round trip,
 * goodput, loss — the agent measures itself (uplink/link-meter.ts) and adds to its link reports.
 */
export interface LinkStatusSource {
  current(): LinkReport;
  onChange(listener: (report: LinkReport) => void): () => void;
}

export interface AgentOptions {
  /**
   * First reconnect delay; doubles up to maxBackoffMs, less up to 20 % at random (backoffDelay). When
   * shore refused the hello with a time to come back, that time instead (redialDelay); after shore
   * closed the link saying it restarts, every 1–5 s for a while (RedialPlan).
   */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often URL cameras' health is read (from their sessions: no probe). Default 2 s. */
  probeEveryMs?: number;
  /** How often cameras' own sessions are asked whether pictures arrive (sendingNow): a silent camera is reported within this. Default 250 ms. */
  watchEveryMs?: number;
  /** Shore pings when either direction was quiet for 5 s; this long without a word from shore, the agent redials. */
  silenceTimeoutMs?: number;
  /** Whether a URL camera answers (default: its session's pictures flow; see url-camera.ts). */
  probe?: (url: string) => Promise<boolean>;
  /**
   * Kinds of camera besides the URL camera (camera-source.ts), asked in order for each camera of
   * the configuration: the simulator's synthetic camera is one.
   */
  cameraKinds?: readonly CameraKind[];
  /** Options of the URL cameras (ffprobe, ONVIF). */
  urlCameras?: UrlCameraOptions;
  /**
   * The link measurement (uplink/link-meter.ts): a ping every `pingEveryMs` (default 5 s; a ping
   * and its pong are 8 bytes), a link report with the figures every `reportEveryMs` (default 60 s).
   */
  linkMeasure?: { pingEveryMs?: number; reportEveryMs?: number };
  streams?: LiveStreamsOptions;
  /** The ship recorder (data directory, retention); without a data directory URL cameras are not recorded. */
  recorder?: ShipRecorderOptions;
  playback?: PlaybackStreamsOptions;
  /** Backfill's sender: `transcode: false` is an agent that sends only the ship's own bytes (as before it could transcode). */
  backfill?: BackfillSenderOptions;
  /** The ship's pictures (kept under the recorder's data directory unless given one of their own). */
  pictures?: ShipPicturesOptions;
  /** Talkback: where the voice is played (ShipSpeaker) and kept (the recorder's data directory unless given). */
  talk?: ShipTalkOptions;
  /**
   * The ship's event analysis (events/analyser): each camera's picture analysed for motion and,
   * on motion, people, boats and vehicles; events handed to the durable outbox (events/outbox),
   * which sends them to shore. Absent: no analysis at all (nothing is decoded, no model is loaded);
   * the outbox still runs (what it holds from before goes to shore). Cameras' settings are shore's
   * (`events.settings`, kept on disk by the outbox), DEFAULT_CAMERA_EVENT_SETTINGS until shore sent any.
   */
  events?: AgentEventsOptions;
  /** The event outbox (kept under the recorder's data directory unless given one). */
  eventOutbox?: ShipEventsOptions;
}

export interface AgentEventsOptions extends Partial<Omit<EventAnalysisOptions, 'cameras' | 'sink' | 'settings'>> {
  /** Where events go. Default: the durable outbox to shore (`agent.eventOutbox`). */
  sink?: EventSink;
  /** Each camera's settings. Default: what shore last sent (`agent.eventOutbox.settingsOf`). */
  settings?: (cameraId: string) => CameraEventSettings;
  /** How often the analysis' status is read (shore hears it when it changed). Default 2 s. */
  statusEveryMs?: number;
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
  /** Something on the ship worth the log: an event the outbox dropped or shore refused. */
  warning: [message: string];
  /** A camera sends something its session cannot use (no parameter sets, an unreadable sequence header); for the log. */
  cameraProblem: [cameraUrl: string, problem: string];
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
  /** Redial timing: the backoff, shore's retry-after, and the quick redials after shore said it restarts. */
  private readonly redials: RedialPlan;
  /** When shore's refusal of this connection's hello said when to come back (ms). */
  private retryAfterMs: number | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  /** What the ship recorder last said of each camera it records. */
  private readonly recorderStates = new Map<string, { recording: boolean; since: number | null }>();
  private silenceTimer: NodeJS.Timeout | undefined;
  private lastHeard = 0;
  private unsubscribeLink: (() => void) | undefined;
  private readonly cameras = new Map<string, CameraState>();
  private readonly opts: Required<Pick<AgentOptions, 'minBackoffMs' | 'maxBackoffMs' | 'probeEveryMs' | 'watchEveryMs' | 'silenceTimeoutMs'>> & { pingEveryMs: number; reportEveryMs: number };
  /** Stops the current connection's link measurement (its pings and reports). */
  private stopMeasures: () => void = () => undefined;
  /** Live streams shore asked for; they run only while the socket is up. */
  readonly streams: LiveStreams;
  /** The ship's own recordings: kept whether or not the link is up. */
  readonly recorder: ShipRecorder;
  /** One session per URL camera, shared by its recorder and live streams (camera-session.ts). */
  readonly sessions = new CameraSessions({ onProblem: (url, text) => this.emit('cameraProblem', url, text) });
  /** Each camera as its kind reads it (camera-source.ts). */
  readonly sources: CameraSources;
  private sessionHolds: (() => void)[] = [];
  /** Playbacks of the ship's recordings shore asked for; they run only while the socket is up. */
  readonly playback: PlaybackStreams;
  /** Copies of the ship recorder's segment files shore asks for to refill its own recording. */
  readonly backfill: BackfillSender;
  /** Pictures taken and kept on the ship, sent to shore from a durable outbox. */
  readonly pictures: ShipPictures;
  /** Talkback: the operator's voice to a file per talk and to the ship's speaker (useSpeaker). */
  readonly talk: ShipTalk;
  /** The PTZ cameras and their presets (kind `ptz` is handled when there is one). */
  readonly ptz: ShipPtz;
  /** Events the analysis found, sent to shore from a durable outbox; the cameras' analysis settings from shore. */
  readonly eventOutbox: ShipEvents;
  /** The event analysis while the agent runs, when AgentOptions.events asked for it. */
  events: EventAnalysis | undefined;
  private readonly eventsOptions: AgentEventsOptions | undefined;
  private analysisTimer: NodeJS.Timeout | undefined;
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
      watchEveryMs: opts.watchEveryMs ?? 250,
      silenceTimeoutMs: opts.silenceTimeoutMs ?? 30_000,
      pingEveryMs: opts.linkMeasure?.pingEveryMs ?? 5_000,
      reportEveryMs: opts.linkMeasure?.reportEveryMs ?? 60_000,
    };
    this.redials = new RedialPlan({ minMs: this.opts.minBackoffMs, maxMs: this.opts.maxBackoffMs });
    this.eventsOptions = opts.events;
    this.sources = new CameraSources(config.cameras, {
      sessions: this.sessions,
      ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}),
      ...(opts.cameraKinds ? { kinds: opts.cameraKinds } : {}),
      url: { ...opts.urlCameras, ...(opts.probe ? { health: opts.probe } : {}) },
    });
    this.ptz = new ShipPtz(this.sources);
    this.streams = new LiveStreams(this.sources, opts.streams);
    this.recorder = new ShipRecorder(this.sources, opts.recorder);
    this.playback = new PlaybackStreams(this.recorder, {
      // Live and playback share the socket: the bound covers both (8 s of their bitrate, at least live's own bound).
      queueLimitBytes: (playbackKbps) => Math.max(this.streams.queueLimitBytes(), (this.streams.totalKbps() + playbackKbps) * 1000),
      ...opts.playback,
    });
    this.backfill = new BackfillSender(this.recorder, opts.backfill);
    this.pictures = new ShipPictures(this.sources, {
      ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}),
      ...opts.pictures,
    });
    // The operator's voice plays on the ship's speaker as its camera's source hears it (the
    // simulator's synthetic camera mixes it into its own sound, so the operator hears it come back
    // over the link); a test may pass a speaker of its own.
    const speaker = { play: (cameraId: string, pcm: Int16Array) => this.sources.get(cameraId)?.speaker?.(pcm) };
    this.talk = new ShipTalk(new Set(config.cameras.map((c) => c.cameraId)), {
      ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}),
      speaker,
      ...opts.talk,
    });
    const outboxOptions = opts.eventOutbox ?? {};
    this.eventOutbox = new ShipEvents({
      ...(opts.recorder?.dataDir ? { dataDir: opts.recorder.dataDir } : {}),
      ...outboxOptions,
      onSettings: (cameraId, settings) => {
        this.events?.apply(cameraId, settings);
        outboxOptions.onSettings?.(cameraId, settings);
      },
      onWarning: (message) => {
        this.emit('warning', message);
        outboxOptions.onWarning?.(message);
      },
    });
    this.recorder.on('recording', (cameraId, recording, since) => {
      this.recorderStates.set(cameraId, { recording, since });
      this.updateCamera(cameraId, {});
    });
    // Shore hears the recorder's storage in the hello and again only when it changes (first known,
    // or the disk given stops or starts again holding the days asked): not in every link report,
    // which would carry the same figures across the satellite link once a minute.
    this.recorder.on('storage', (storage) => this.send({ type: 'link', ...this.link.current(), storage }));
    const now = Date.now();
    for (const source of this.sources) this.cameras.set(source.camera.cameraId, source.initialState(now));

    this.router.handle('live', { message: (msg) => this.streams.handle(msg) });
    this.router.handle('playback', {
      message: (msg) => (msg.type === 'vod.query' ? this.send(this.recorder.query(msg)) : this.playback.handle(msg)),
    });
    this.router.handle('pictures', this.pictures);
    this.router.handle('talk', this.talk);
    this.router.handle('backfill', this.backfill);
    this.router.handle('events', this.eventOutbox);
    if (this.ptz.any) this.router.handle('ptz', this.ptz.handler((msg) => this.send(msg)));
    this.router.on('message', (msg) => this.emit('message', msg));
    this.router.on('control', (msg) => {
      if (msg.type === 'welcome') {
        this.protocol = msg.protocol;
        // Shore acknowledges what it receives: keep a round trip's worth in flight, the rest in priority order here.
        if (msg.protocol >= LINK_ACK_VERSION) this.uplink?.useWindow();
        // Only a welcomed hello ends the backoff: a link shore closes at once must not be redialled at the shortest delay.
        this.redials.welcomed();
        // From link version 4 the outboxes ask for their inboxes when they have something for shore.
        this.pictures.welcomed(msg.protocol);
        this.eventOutbox.welcomed(msg.protocol);
      } else if (msg.type === 'link.ack') this.uplink?.acknowledged(msg.bytes);
      else {
        if (msg.code === 'retryLater') this.retryAfterMs = msg.retryAfterMs;
        this.emit('refused', msg.code, msg.message);
      }
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
    // Every camera stays open while the agent runs (a URL camera's session: its health is known and
    // a live view starts from the running session whether or not the camera is recorded).
    this.sessionHolds = [...this.sources].map((s) => s.hold());
    this.recorder.start();
    this.pictures.start();
    this.startAnalysis();
    this.probeTimer = setInterval(() => void this.probeAll(), this.opts.probeEveryMs);
    this.probeTimer.unref();
    this.watchTimer = setInterval(() => this.watchSending(), this.opts.watchEveryMs);
    this.watchTimer.unref();
    void this.probeAll();
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.probeTimer);
    clearInterval(this.watchTimer);
    clearInterval(this.silenceTimer);
    this.stopMeasuring();
    this.unsubscribeLink?.();
    clearInterval(this.analysisTimer);
    const events = this.events;
    this.events = undefined;
    await Promise.all([this.streams.stopAll(), this.playback.stopAll(), this.recorder.stop(), this.pictures.stop(), this.talk.stopAll(), events?.stop()]);
    this.eventOutbox.close();
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
    if (before.online !== state.online || before.recording !== state.recording || before.recordingSince !== state.recordingSince || before.codec !== state.codec) {
      this.send({ type: 'camera', ...state });
    }
  }

  /**
   * A camera's state after a change of whether it answers: recording is reported while the ship
   * recorder records it and the camera sends (a silent camera's recording holds nothing), so the
   * recording status on STOMP turns with the live one.
   */
  private updateCamera(cameraId: string, change: { online?: boolean }): void {
    const before = this.cameras.get(cameraId);
    if (!before) return;
    const online = change.online ?? before.online;
    // What the camera sends is what the ship records: its silences are the causes of gaps.
    if (change.online !== undefined) this.recorder.cameraSending(cameraId, change.online);
    const recorder = this.recorderStates.get(cameraId);
    if (!recorder) {
      this.setCamera({ ...before, online });
      return;
    }
    const recording = recorder.recording && online;
    this.setCamera({ ...before, online, recording, recordingSince: recording ? recorder.since : null });
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
    this.retryAfterMs = undefined;
    const heard = () => (this.lastHeard = Date.now());
    ws.on('ping', (data: Buffer) => {
      heard();
      // Answered with a pong of the same payload: bytes on the uplink shore counts.
      this.uplink?.sentBeside(data.length);
    });
    ws.on('open', () => {
      heard();
      const meter = new LinkMeter(performance.now());
      const uplink = new UplinkScheduler(
        {
          write: (data) => {
            if (ws.readyState === WebSocket.OPEN) ws.send(data, { binary: typeof data !== 'string' });
          },
          buffered: () => ws.bufferedAmount,
        },
        { observer: meter },
      );
      this.uplink = uplink;
      this.startMeasuring(ws, meter, uplink);
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
      this.backfill.attach({ sendJson: (m) => this.send(m), sendBackfill: (data) => uplink.send('backfill', data), queuedBackfill: () => uplink.queued('backfill') });
      this.eventOutbox.attach({ sendJson: (m) => this.send(m), sendBinary: (frame) => uplink.send('events', frame) });
      clearInterval(this.silenceTimer);
      this.silenceTimer = setInterval(() => {
        if (Date.now() - this.lastHeard > this.opts.silenceTimeoutMs) ws.terminate();
      }, Math.min(5_000, this.opts.silenceTimeoutMs));
      this.silenceTimer.unref();
      this.send({
        type: 'hello',
        protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION },
        agentVersion: AGENT_VERSION,
        capabilities: [
          ...this.router.capabilities,
          ...(this.streams.codecs.has('av1') ? [ENCODES_AV1_CAPABILITY] : []),
          ...(this.backfill.transcodes ? [BACKFILL_TRANSCODE_CAPABILITY] : []),
          EVENTS_HOLD_CAPABILITY,
        ],
        link: this.link.current(),
        cameras: [...this.cameras.values()],
        ...this.storageField(),
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
      this.stopMeasuring();
      this.streams.detach();
      this.playback.detach();
      this.pictures.detach();
      this.talk.detach();
      this.backfill.detach();
      this.eventOutbox.detach();
      this.emit('disconnected', `${code} ${reason.toString()}`.trim());
      this.scheduleReconnect(code);
    });
  }

  /**
   * The cameras' analysis runs while the agent does, link or no link, into the outbox, with the
   * settings shore last sent; shore hears its status when it changes.
   */
  private startAnalysis(): void {
    if (!this.eventsOptions) return;
    const { sink, settings, statusEveryMs, ...rest } = this.eventsOptions;
    const shipId = this.config.shipId;
    const analysis = startEventAnalysis({
      log: (m) => console.log(`[events ${shipId}] ${m}`),
      ...rest,
      cameras: this.sources,
      sink: sink ?? this.eventOutbox,
      settings: settings ?? ((cameraId) => this.eventOutbox.settingsOf(cameraId)),
    });
    this.events = analysis;
    const report = () => this.eventOutbox.reportStatus(analysis.status());
    report();
    this.analysisTimer = setInterval(report, statusEveryMs ?? 2_000);
    this.analysisTimer.unref();
  }

  private scheduleReconnect(code: number): void {
    if (this.stopped) return;
    const delay = this.redials.closed(code, this.retryAfterMs);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }

  /**
   * Measures the link of this connection: a WebSocket ping every pingEveryMs (uplink/link-pings.ts),
   * and every reportEveryMs a link report with what was measured (uplink/link-meter.ts).
   */
  private startMeasuring(ws: WebSocket, meter: LinkMeter, uplink: UplinkScheduler): void {
    this.stopMeasuring();
    const stopPings = pingShore(ws, meter, uplink, this.opts.pingEveryMs);
    const report = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) this.send({ type: 'link', ...this.link.current(), measured: meter.report(performance.now()) });
    }, this.opts.reportEveryMs);
    report.unref();
    this.stopMeasures = () => {
      stopPings();
      clearInterval(report);
    };
  }

  private stopMeasuring(): void {
    this.stopMeasures();
    this.stopMeasures = () => undefined;
  }

  private storageField(): { storage?: RecorderStorage } {
    const storage = this.recorder.storage();
    return storage ? { storage } : {};
  }

  private send(msg: AgentMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.uplink?.send('control', JSON.stringify(msg));
  }

  /**
   * Cameras whose sessions know at once whether pictures arrive: a change is reported now, not at
   * the next probe. So is the camera's codec once its session read it, or when it changes.
   */
  private watchSending(): void {
    for (const source of this.sources) {
      const sending = source.sendingNow?.();
      const before = this.cameras.get(source.camera.cameraId);
      if (sending !== undefined && before && before.online !== sending) this.updateCamera(source.camera.cameraId, { online: sending });
      const codec = source.codecNow?.();
      const now = this.cameras.get(source.camera.cameraId);
      if (codec !== undefined && now && now.codec !== codec) this.setCamera({ ...now, codec });
    }
  }

  private async probeAll(): Promise<void> {
    await Promise.all(
      [...this.sources].map(async (source) => {
        if (!source.online) return;
        const online = await source.online();
        this.updateCamera(source.camera.cameraId, { online });
      }),
    );
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type {
  AgentMessageOf,
  DefinitionModel,
  MediaServerMessage,
  PlaybackControlCommand,
  PlaybackSpeed,
  StreamState,
} from '@ship-cctv/protocol';
import { decodesHevc } from '@ship-cctv/protocol';
import type { LinkStream, OpenStreamResult } from '../../core/ship-link/index.ts';
import type { LinkStreamOpener } from '../../core/ship-link/index.ts';
import { RelaySplitter, mimeFor } from '../../core/media/fmp4.ts';
import type { MediaViewer } from '../../core/media/viewer.ts';
import { encodeSpec } from '../fleet/index.ts';

/** What one viewer asked to play back; it outlives a run (the watch limit stops a run, `continue` starts the next). */
export interface PlaybackTicket {
  shipId: string;
  cameraId: string;
  orgId: string;
  waitSeconds: number;
  autoShutdown: { enabled: boolean; minutes: number; countdownSeconds: number };
  model: DefinitionModel;
  start: number;
  end: number;
  /** Where the next run starts: a run that stops leaves its position here. */
  from: number;
  speed: PlaybackSpeed;
  timeZone?: string;
}

/** Bounds on what a slow viewer may hold up: past the high mark the ship is paused, past the hard limit the viewer is dropped. */
export interface PlaybackFlowOptions {
  highWaterBytes: number;
  lowWaterBytes: number;
  hardLimitBytes: number;
  /** How often a backed-up viewer's socket is looked at. */
  pollMs: number;
}

export const PLAYBACK_FLOW_DEFAULTS: PlaybackFlowOptions = {
  highWaterBytes: 1024 * 1024,
  lowWaterBytes: 256 * 1024,
  hardLimitBytes: 8 * 1024 * 1024,
  pollMs: 100,
};

export interface PlaybackRunDeps {
  /** Opens a playback stream on the ship's link (LinkStreams.openStream for the ticket's ship: here, or through its owner). */
  openStream: LinkStreamOpener<'playback'>;
  ticket: PlaybackTicket;
  viewer: MediaViewer;
  /** The playback is over for good: ended, failed, or stopped. */
  onFinish(run: PlaybackRun): void;
  log: FastifyBaseLogger;
  /** How long the ship has to start a stream before the viewer is told the playback failed. */
  startTimeoutMs: number;
  flow: PlaybackFlowOptions;
}

/**
 * One viewer's ship-end playback: a playback is never shared (each viewer has its own range,
 * position, speed and pause), so the ship sends it for this viewer only, and only while it plays.
 * Pausing pauses the ship; seeking or a new speed asks the ship for a fresh stream (the viewer gets
 * a new codec and init segment); a dropped link resumes from the last position when it returns.
 */
export class PlaybackRun {
  /** The ship's current stream of this playback, while one is asked for. */
  private stream: LinkStream<'playback'> | undefined;
  private splitter = new RelaySplitter();
  private state: StreamState = 'starting';
  private userPaused = false;
  /** The viewer's socket is backed up: the ship is paused until it drains. */
  private flowPaused = false;
  /** What the ship was last told about the current stream. */
  private agentPaused = false;
  /** The ship said something about the current stream (started, bytes, position). */
  private answered = false;
  private finished = false;
  /** Counts stream requests and releases: a stream opened (through the ship's owner) for one no longer current is closed unused. */
  private requests = 0;
  /** The stream through the ship's owner was lost (the viewer was told): the owner's offline news says nothing new. */
  private relayedLost = false;
  private startTimer: NodeJS.Timeout | undefined;
  private flowTimer: NodeJS.Timeout | undefined;
  private position: number;
  private speed: PlaybackSpeed;

  constructor(private readonly deps: PlaybackRunDeps) {
    this.position = deps.ticket.from;
    this.speed = deps.ticket.speed;
  }

  get shipId(): string {
    return this.deps.ticket.shipId;
  }
  get currentStreamId(): number | undefined {
    return this.stream?.id;
  }
  get snapshot(): { shipId: string; cameraId: string; streamId: number | undefined; state: StreamState; position: number; speed: PlaybackSpeed; paused: boolean } {
    return {
      shipId: this.shipId,
      cameraId: this.deps.ticket.cameraId,
      streamId: this.stream?.id,
      state: this.state,
      position: this.position,
      speed: this.speed,
      paused: this.userPaused,
    };
  }

  start(): void {
    this.request();
  }

  /** The viewer left (stop, socket closed, watch limit): the ship stops sending; the ticket keeps the position. */
  stop(): void {
    if (this.finished) return;
    this.finish();
  }

  /** Answers an error message for a control that cannot apply. */
  control(cmd: PlaybackControlCommand): string | undefined {
    if (this.finished) return 'the playback has ended; send play to start again';
    const { start, end } = this.deps.ticket;
    switch (cmd.type) {
      case 'pause':
        if (this.userPaused) return undefined;
        this.userPaused = true;
        this.syncAgentPause();
        this.sendPosition();
        return undefined;
      case 'resume':
        if (!this.userPaused) return undefined;
        this.userPaused = false;
        // A seek or speed change while paused left no stream: start it now.
        if (this.stream === undefined) this.request();
        else this.syncAgentPause();
        this.sendPosition();
        return undefined;
      case 'seek':
        if (cmd.time < start || cmd.time >= end) return `the seek time must lie inside the playback range [${start}, ${end})`;
        this.position = cmd.time;
        this.restart();
        return undefined;
      case 'speed':
        this.speed = cmd.speed;
        this.restart();
        return undefined;
    }
  }

  /** The ship's agent said hello on a new connection: whatever it was sending before is gone on its side. */
  onAgentOnline(): void {
    if (this.finished) return;
    this.forget();
    if (!this.userPaused) this.request();
  }

  onAgentOffline(): void {
    // Told already: a relayed stream's loss came before the owner's offline news.
    if (this.finished || this.relayedLost) return;
    this.forget();
    this.setState('offline', 'ship link is down');
  }

  onAgentMessage(msg: AgentMessageOf<'playback'>): void {
    if (this.finished) return;
    switch (msg.type) {
      case 'playback.started':
        this.heard();
        return;
      case 'playback.position':
        this.heard();
        this.position = msg.time;
        this.sendPosition();
        return;
      case 'playback.ended':
        this.position = this.deps.ticket.end;
        this.setState('ended', 'the playback range is done');
        this.finish(false);
        return;
      case 'playback.failed':
        this.deps.viewer.sendJson({ type: 'error', code: msg.code, message: msg.message });
        this.finish();
        return;
      default:
        return;
    }
  }

  /** Bytes of the ship's fMP4 output for the current stream, in order. */
  onData(payload: Uint8Array): void {
    if (this.finished) return;
    this.heard();
    let units;
    try {
      units = this.splitter.push(payload);
    } catch (err) {
      this.deps.log.error({ err, cameraId: this.deps.ticket.cameraId }, 'malformed playback stream from the ship');
      this.deps.viewer.sendJson({ type: 'error', code: 'playbackFailed', message: 'the ship sent a malformed stream' });
      this.finish();
      return;
    }
    const { consumer } = this.deps.viewer;
    for (const unit of units) {
      if (unit.kind === 'init') {
        const { model } = this.deps.ticket;
        this.deps.viewer.sendJson({
          type: 'codec',
          mime: mimeFor(unit),
          width: unit.width,
          height: unit.height,
          frameRate: model.frameRate,
          templateId: model.id,
        });
        consumer.send(unit.data, { kind: 'init', init: unit });
      } else if (unit.kind === 'fragment') {
        consumer.send(unit.data, { kind: 'fragment', fragment: unit });
        if (this.state !== 'playing') this.setState('playing');
      }
      if (this.finished) return; // the viewer was dropped while sending
    }
    this.checkFlow();
  }

  private request(): void {
    const seq = ++this.requests;
    this.relayedLost = false;
    const mine: { stream?: LinkStream<'playback'>; relayed?: boolean } = {};
    const opened = this.deps.openStream({
      message: (msg) => this.onAgentMessage(msg),
      data: (payload) => this.onData(payload),
      // A stream through the ship's owner: its link went there, or the owner died (whose offline
      // news then never comes). A link here says so by the gateway's offline event, as before.
      closed: () => {
        if (!mine.relayed || mine.stream === undefined || this.stream !== mine.stream) return;
        this.onAgentOffline();
        this.relayedLost = true;
      },
    });
    if (!(opened instanceof Promise)) return this.opened(seq, opened, mine);
    mine.relayed = true;
    opened.then(
      (o) => this.opened(seq, o, mine),
      (err: unknown) => {
        this.deps.log.error({ err, shipId: this.shipId }, 'opening a playback stream failed');
        if (seq === this.requests && !this.finished) this.setState('offline', 'ship link is down');
      },
    );
  }

  /** The stream asked for is open (or refused): it plays, unless the run moved on while it was opened. */
  private opened(seq: number, opened: OpenStreamResult<'playback'>, mine: { stream?: LinkStream<'playback'>; relayed?: boolean }): void {
    if (seq !== this.requests || this.finished) {
      if (opened.ok) opened.stream.close();
      return;
    }
    if (!opened.ok) {
      if (opened.reason === 'unsupported') this.deps.log.error({ shipId: this.shipId, reason: opened.message }, 'ship cannot play back');
      this.setState('offline', opened.reason === 'offline' ? 'ship link is down' : opened.message);
      return;
    }
    this.release();
    const { stream } = opened;
    this.stream = stream;
    mine.stream = stream;
    this.splitter = new RelaySplitter();
    this.agentPaused = false;
    this.answered = false;
    const { ticket } = this.deps;
    stream.send({
      type: 'playback.start',
      streamId: stream.id,
      cameraId: ticket.cameraId,
      // A viewer that decodes H.265 gets an H.265 camera's recording as the ship keeps it (the ship copies it when it fits).
      encode: { ...encodeSpec(ticket.model), ...(decodesHevc(this.deps.viewer.decoders) ? { passThrough: ['h265' as const] } : {}) },
      start: ticket.start,
      end: ticket.end,
      from: this.position,
      speed: this.speed,
    });
    if (this.state !== 'playing') this.setState('starting');
    clearTimeout(this.startTimer);
    this.startTimer = setTimeout(() => {
      if (this.answered || this.finished) return;
      this.deps.viewer.sendJson({
        type: 'error',
        code: 'playbackFailed',
        message: `the ship did not start the playback within ${Math.round(this.deps.startTimeoutMs / 1000)} s`,
      });
      this.finish();
    }, this.deps.startTimeoutMs);
    this.startTimer.unref();
    this.syncAgentPause();
  }

  /** A new position or speed: the current stream stops; a new one starts now, or on resume when paused. */
  private restart(): void {
    if (this.userPaused) {
      this.release();
      this.sendPosition();
      return;
    }
    this.request();
    this.sendPosition();
  }

  private heard(): void {
    this.answered = true;
    clearTimeout(this.startTimer);
  }

  private syncAgentPause(): void {
    const want = this.userPaused || this.flowPaused;
    if (this.stream === undefined || want === this.agentPaused) return;
    this.agentPaused = want;
    this.stream.send({ type: want ? 'playback.pause' : 'playback.resume', streamId: this.stream.id });
  }

  /**
   * Bounded buffering for a viewer slower than the link: rather than queue without end (or skip
   * recorded video the ship already paid to send), pause the ship until the viewer has drained.
   */
  private checkFlow(): void {
    const { flow } = this.deps;
    const buffered = this.deps.viewer.consumer.bufferedAmount();
    if (buffered > flow.hardLimitBytes) {
      this.finish();
      this.deps.viewer.consumer.drop(`slow consumer: ${buffered} bytes buffered`);
      return;
    }
    if (buffered <= flow.highWaterBytes || this.flowPaused) return;
    this.flowPaused = true;
    this.syncAgentPause();
    this.flowTimer = setInterval(() => {
      if (this.finished || this.deps.viewer.consumer.bufferedAmount() <= flow.lowWaterBytes) {
        clearInterval(this.flowTimer);
        this.flowPaused = false;
        this.syncAgentPause();
      }
    }, flow.pollMs);
    this.flowTimer.unref();
  }

  private sendPosition(): void {
    const message: MediaServerMessage = { type: 'position', time: this.position, speed: this.speed, paused: this.userPaused };
    this.deps.viewer.sendJson(message);
  }

  /** Tells the ship to stop the current stream, if any. */
  private release(): void {
    const stream = this.stream;
    if (stream === undefined) return;
    stream.send({ type: 'playback.stop', streamId: stream.id });
    this.forget();
  }

  /** Forgets the current stream without telling the ship (it ended it, or the link is gone). */
  private forget(): void {
    this.requests++;
    clearTimeout(this.startTimer);
    this.stream?.close();
    this.stream = undefined;
  }

  private finish(stopShip = true): void {
    if (this.finished) return;
    if (stopShip) this.release();
    else this.forget();
    this.finished = true;
    clearTimeout(this.startTimer);
    clearInterval(this.flowTimer);
    this.deps.ticket.from = Math.min(Math.max(this.position, this.deps.ticket.start), this.deps.ticket.end);
    this.deps.ticket.speed = this.speed;
    this.deps.onFinish(this);
  }

  private setState(state: StreamState, reason?: string): void {
    if (state === this.state && state !== 'offline') return;
    this.state = state;
    this.deps.viewer.sendJson({ type: 'status', state, ...(reason ? { reason } : {}) });
  }
}

import type { FastifyBaseLogger } from 'fastify';
import { type AgentMessageOf, CAMERA_SILENT_REASON, DECODER_OF, DECODER_PREFIXES, decodesHevc, type DecoderPrefix, type DefinitionModel, type MediaServerMessage, type StreamState, VIDEO_CODECS, type VideoCodec } from '@ship-cctv/protocol';
import type { LinkStream, OpenStreamResult } from '../../core/ship-link/index.ts';
import { RelaySplitter, type InitSegment, type MediaFragment, mimeFor } from '../../core/media/fmp4.ts';
import { StreamHub } from '../../core/media/stream-hub.ts';
import type { Source } from '../../core/media/stream-registry.ts';
import type { MediaViewer, RelayedStreamAbout } from '../../core/media/viewer.ts';
import type { LiveStreamHandler } from './live-origin.ts';
import { definitionCodec, encodeSpec } from '../fleet/index.ts';

/**
 * Observes the media of every live source (the shore recorder; see LiveService.tapMedia). It only
 * listens: it never starts, holds or stops an uplink. Called synchronously; must not throw.
 */
export interface LiveMediaTap {
  init(source: LiveSource, init: InitSegment, model: DefinitionModel): void;
  fragment(source: LiveSource, fragment: MediaFragment): void;
  /** The source's stream ended (stopped, restarting, ship offline); a new init may follow. */
  end(source: LiveSource): void;
  /** The server is closing: the streams that end now end with it, not because their viewers left. */
  closing?(): void;
}


export interface LiveSourceDeps {
  /**
   * Opens a live stream on the ship's link (AgentGateway.openStream for this ship), or a relay of
   * it from the instance that owns the ship (`relayed`: the owner's taps see it, not this instance's).
   * `decoders`: what every viewer of the source decodes (the first viewer's word while none has joined).
   */
  openStream: (handler: LiveStreamHandler, decoders: ReadonlySet<DecoderPrefix> | undefined) => OpenStreamResult<'live'> & { relayed?: boolean };
  shipId: string;
  cameraId: string;
  requested: DefinitionModel;
  lowest: DefinitionModel;
  /** The ship's config has sound on: the agent encodes the camera's sound too (else none crosses the link). */
  audio?: boolean;
  log: FastifyBaseLogger;
  /** Delay before asking again after the agent reported a failed or ended stream. */
  retryMs?: number;
  /**
   * About once a second: how far (ms) the stream has fallen behind real time since it started,
   * beyond its best moment. It grows when the ship's uplink cannot carry the stream.
   */
  onLag?(source: LiveSource, excessMs: number): void;
  /** Who else sees the media as it passes (the shore recorder). */
  taps?: ReadonlySet<LiveMediaTap>;
  /** Whether the ship's agent encodes a codec other than H.264 (see LiveOrigin.encodes). Absent: H.264 only. */
  encodes?: (codec: VideoCodec) => boolean;
  /** What the first viewer decodes, before it joins (the stream is asked for just before): absent, H.264 only. */
  firstDecoders?: ReadonlySet<DecoderPrefix>;
  /** The stream for viewers that decode H.265 (LiveStreamSpec.hevc): it always asks for the camera's own H.265. */
  hevc?: boolean;
  /**
   * The ship said which codec the camera sends (live.started), and `passable`: whether its H.265
   * goes up as it is at this definition (known only for a stream that asked for it: a camera larger
   * than the definition is transcoded whatever the viewers decode).
   */
  onCameraCodec?(source: LiveSource, codec: 'h264' | 'h265', passable: boolean | undefined): void;
}

/**
 * How far a live stream has fallen behind: the encoder runs at wall-clock pace, so media time
 * should arrive as fast as real time; the excess over the smallest lag seen is the queue growing
 * somewhere on the way (in practice, on the ship's uplink). Measured on shore from what arrives,
 * it does not wait behind the very bytes that are late, as a report from the ship would.
 */
export class LagMeter {
  private start: { wall: number; media: number } | undefined;
  private minLag = Infinity;
  private maxExcess = 0;
  private lastReport = 0;

  constructor(private readonly everyMs = 1_000) {}

  reset(): void {
    this.start = undefined;
    this.minLag = Infinity;
    this.maxExcess = 0;
  }

  /** Feeds one fragment's end time (seconds of media); answers the excess to report, once per interval. */
  fragment(mediaEndSeconds: number, now: number): number | undefined {
    if (!this.start) {
      this.start = { wall: now, media: mediaEndSeconds };
      this.lastReport = now;
      return undefined;
    }
    const lag = now - this.start.wall - (mediaEndSeconds - this.start.media) * 1000;
    this.minLag = Math.min(this.minLag, lag);
    this.maxExcess = Math.max(this.maxExcess, lag - this.minLag);
    if (now - this.lastReport < this.everyMs) return undefined;
    const excess = this.maxExcess;
    this.maxExcess = 0;
    this.lastReport = now;
    return excess;
  }
}

/**
 * One uplink stream: a camera at a definition, requested from the ship's agent while anyone
 * watches and fanned out to every viewer through a StreamHub. It follows the agent: offline when
 * the ship drops, restarted when it returns, re-encoded at the lowest definition when the link
 * cannot carry it.
 */
export class LiveSource implements Source {
  readonly hub = new StreamHub<InitSegment, MediaFragment>();
  private readonly viewers = new Set<MediaViewer>();
  private splitter = new RelaySplitter();
  /** The uplink on the ship's link while one is asked for. */
  private stream: LinkStream<'live'> | undefined;
  private state: StreamState = 'starting';
  /** Why the stream is in its state, when there is a reason to tell (offline, stalled). */
  private stateReason: string | undefined;
  private effective: DefinitionModel;
  private codec: MediaServerMessage | undefined;
  /** The codec the current stream was asked in. */
  private codecSent: VideoCodec | undefined;
  /** Whether the current stream was asked to pass the camera's H.265 through. */
  private passThroughSent = false;
  /** What the ship said of the current stream (live.started): the camera's codec, whether it transcodes. */
  private about: { cameraCodec?: 'h264' | 'h265'; transcoded?: boolean } = {};
  /** The current stream's init segment, once it came. */
  private init: InitSegment | undefined;
  private timescale = 0;
  private readonly lag = new LagMeter();
  /** The ship said the camera stopped sending; its next fragment starts the lag measure again. */
  private cameraWasSilent = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /**
   * The current stream is on the ship's link here, not a relay from its owner: only then do the
   * taps see its media and its lag steer the definition (the owner does both for a relay).
   */
  private local = true;

  constructor(private readonly deps: LiveSourceDeps) {
    this.effective = deps.requested;
  }

  get shipId(): string {
    return this.deps.shipId;
  }
  get cameraId(): string {
    return this.deps.cameraId;
  }
  get currentState(): StreamState {
    return this.state;
  }
  get definition(): DefinitionModel {
    return this.effective;
  }
  /** The definition its viewers asked for (what it carries unless the link is degraded). */
  get requestedDefinition(): DefinitionModel {
    return this.deps.requested;
  }
  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Asks the ship for the stream; a source that has one already (or was stopped) keeps what it has. */
  start(): void {
    if (this.stopped || this.stream) return;
    this.request();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.release();
    for (const v of this.viewers) this.hub.removeConsumer(v.consumer);
    this.viewers.clear();
  }

  /** Stopped for good: its last viewer left (or the server closes); a link drop does not stop it. */
  get isStopped(): boolean {
    return this.stopped;
  }

  get hasAudio(): boolean {
    return this.deps.audio ?? false;
  }

  /** The stream for viewers that decode H.265 (the camera's own pictures), beside the H.264 one. */
  get isHevcStream(): boolean {
    return this.deps.hevc ?? false;
  }

  /** The running stream carries the camera's own H.265 (asked to pass it through, and the camera sends it). */
  get passesHevc(): boolean {
    return this.stream !== undefined && this.passThroughSent && this.about.cameraCodec === 'h265';
  }

  /** `wantedId`: the definition this viewer asked for, when not this source's own (a guest: no "lowest definition" notice for what it asked). */
  addViewer(viewer: MediaViewer, wantedId?: number): void {
    this.viewers.add(viewer);
    // A viewer that does not decode the running codec: everyone moves to one it decodes (H.264).
    this.reconsiderCodec();
    viewer.sendJson({ type: 'status', state: this.state, ...(this.stateReason ? { reason: this.stateReason } : {}) });
    if (this.effective.id !== this.deps.requested.id && this.effective.id !== wantedId) {
      viewer.sendJson({ type: 'notice', code: 'lowestDefinition', templateId: this.effective.id });
    }
    // The codec event must reach the viewer before the init segment the hub sends on joining.
    if (this.codec) this.sendCodec(viewer, this.codec);
    this.hub.addConsumer(viewer.consumer);
  }

  removeViewer(viewer: MediaViewer): void {
    this.viewers.delete(viewer);
    this.hub.removeConsumer(viewer.consumer);
    // The one viewer who needed H.264 left: the others get the definition's own codec back.
    this.reconsiderCodec();
  }

  /**
   * The codec a stream of `model` goes up in: the definition's own when the ship's agent encodes it
   * and every viewer of the stream decodes it (the first viewer's word stands in while nobody has
   * joined yet), else H.264, which every viewer and agent has.
   */
  private codecFor(model: DefinitionModel): VideoCodec {
    const codec = definitionCodec(model);
    if (codec === 'h264' || !(this.deps.encodes?.(codec) ?? false)) return 'h264';
    const need = DECODER_OF[codec];
    if (this.viewers.size === 0) return this.deps.firstDecoders?.has(need) ? codec : 'h264';
    for (const v of this.viewers) if (!v.decoders?.has(need)) return 'h264';
    return codec;
  }

  /**
   * Whether the stream asks for the camera's own H.265: always for a `+hevc` stream; else when
   * every viewer decodes H.265 (the first viewer's word while nobody has joined), so one viewer
   * watching an H.265 camera whose codec shore did not know yet gets it as it is.
   */
  private passThroughFor(): boolean {
    if (this.deps.hevc) return true;
    if (this.viewers.size === 0) return decodesHevc(this.deps.firstDecoders);
    for (const v of this.viewers) if (!decodesHevc(v.decoders)) return false;
    return true;
  }

  /**
   * What every viewer decodes (the first viewer's word while none has joined): what a relayed
   * stream's owner chooses the codec with, as this source would.
   */
  private commonDecoders(): ReadonlySet<DecoderPrefix> | undefined {
    if (this.viewers.size === 0) return this.deps.firstDecoders;
    const all = [...this.viewers].map((v) => v.decoders ?? new Set<DecoderPrefix>(['avc1']));
    const common = new Set<DecoderPrefix>(DECODER_PREFIXES.filter((p) => all.every((d) => d.has(p))));
    // hvc1 and hev1 name one decoder (H.265): viewers that each name one of them all decode it.
    if (all.every((d) => decodesHevc(d))) common.add('hvc1');
    return common;
  }

  /** A viewer relaying the stream to another instance hears what it was asked and what the ship said, before the codec event. */
  private sendCodec(viewer: MediaViewer, codec: MediaServerMessage): void {
    viewer.relay?.(this.relayedAbout());
    viewer.sendJson(codec);
  }

  private relayedAbout(): RelayedStreamAbout {
    return {
      codec: this.codecSent ?? 'h264',
      passThrough: this.passThroughSent,
      ...this.about,
      encodes: VIDEO_CODECS.filter((c) => c === 'h264' || (this.deps.encodes?.(c) ?? false)),
    };
  }

  /** Restarts the stream in another codec when its viewers now call for one; true when it did. */
  private reconsiderCodec(): boolean {
    if (this.stopped || !this.stream || this.viewers.size === 0) return false;
    const codec = this.codecFor(this.effective);
    // Passing H.265 through or not matters only for a camera that sends H.265 (or one not heard of yet).
    const passThrough = this.passThroughFor();
    // …and not for a stream that asked for it and was transcoded anyway (the camera does not fit the definition).
    const passChanged = passThrough !== this.passThroughSent && this.about.cameraCodec !== 'h264' && !(this.passThroughSent && this.about.transcoded === true);
    if (codec === this.codecSent && !passChanged) return false;
    this.deps.log.info(
      { shipId: this.deps.shipId, cameraId: this.deps.cameraId, from: this.codecSent, to: codec, passThrough },
      'live stream changes codec for its viewers',
    );
    this.restart(this.effective);
    return true;
  }

  onAgentOnline(): void {
    if (this.stopped) return;
    // A stream opened on a link that has since been replaced is gone on the ship's side.
    if (this.stream && !this.stream.open) this.release();
    if (!this.stream) this.request();
  }

  /** The camera stopped sending: a playing stream says so (the next fragment says `playing` again). */
  onCameraSilent(): void {
    this.cameraWasSilent = true;
    if (this.state === 'playing') this.setState('stalled', CAMERA_SILENT_REASON);
  }

  onAgentOffline(): void {
    this.release();
    this.setState('offline', 'ship link is down');
  }

  onStreamMessage(msg: AgentMessageOf<'live'>): void {
    if (msg.type === 'live.started') {
      // The stream begins (again): its first init goes to everyone even when it repeats the last
      // one's bytes, as when a relayed stream follows its ship to a new owner, whose encoder starts
      // its pictures' times anew.
      this.init = undefined;
      this.about = { ...(msg.cameraCodec ? { cameraCodec: msg.cameraCodec } : {}), ...(msg.transcoded !== undefined ? { transcoded: msg.transcoded } : {}) };
      if (msg.cameraCodec) {
        const passable = msg.cameraCodec === 'h265' && this.passThroughSent && msg.transcoded !== undefined ? !msg.transcoded : undefined;
        this.deps.onCameraCodec?.(this, msg.cameraCodec, passable);
      }
      return;
    }
    this.deps.log.warn({ shipId: this.deps.shipId, cameraId: this.deps.cameraId, msg }, 'ship stream stopped');
    this.release();
    if (msg.type === 'live.failed') {
      for (const v of this.viewers) v.sendJson({ type: 'error', code: 'startFailed', message: msg.message });
    }
    this.setState('stalled', msg.type === 'live.failed' ? 'the ship could not start the camera' : 'the ship ended the stream');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped && this.stream === undefined) this.start();
    }, this.deps.retryMs ?? 5_000);
    this.retryTimer.unref();
  }

  /** Bytes of the encoder's output, in order, as the agent sent them. */
  onData(payload: Uint8Array): void {
    let units;
    try {
      units = this.splitter.push(payload);
    } catch (err) {
      this.deps.log.error({ err, cameraId: this.deps.cameraId }, 'malformed stream from the ship; restarting it');
      this.restart(this.effective);
      return;
    }
    const stream = this.stream;
    for (const unit of units) {
      // A lag report below may switch the definition at once (a new stream, the hub reset): what
      // is left of these bytes belongs to the stream that just ended.
      if (this.stream !== stream) return;
      if (unit.kind === 'init') {
        // The same init again (an encoder repeating itself) changes nothing: viewers and the
        // recorder carry on with the stream they have, with no second codec message or recording.
        if (this.init && sameBytes(this.init.data, unit.data)) continue;
        this.init = unit;
        this.codec = {
          type: 'codec',
          mime: mimeFor(unit),
          width: unit.width,
          height: unit.height,
          frameRate: this.effective.frameRate,
          templateId: this.effective.id,
          ...this.about,
        };
        for (const v of this.viewers) this.sendCodec(v, this.codec);
        this.timescale = unit.timescale;
        this.lag.reset();
        this.hub.setInit(unit);
        for (const tap of this.taps()) tap.init(this, unit, this.effective);
      } else if (unit.kind === 'fragment') {
        this.hub.pushFragment(unit);
        for (const tap of this.taps()) tap.fragment(this, unit);
        // Back from a silent camera: its media time goes on from before the silence, which says
        // nothing of the link, so the lag is measured afresh from here.
        if (this.cameraWasSilent) {
          this.cameraWasSilent = false;
          this.lag.reset();
        }
        if (this.timescale > 0 && this.local) {
          const excess = this.lag.fragment((unit.baseMediaDecodeTime + unit.duration) / this.timescale, Date.now());
          if (excess !== undefined) this.deps.onLag?.(this, excess);
        }
        if (this.state !== 'playing') this.setState('playing');
      }
    }
  }

  /** Switch to the lowest definition (the link cannot carry this one) or back to the requested one. */
  setDegraded(degraded: boolean): void {
    const target = degraded ? this.deps.lowest : this.deps.requested;
    if (target.id === this.effective.id) return;
    for (const v of this.viewers) {
      v.sendJson({ type: 'notice', code: degraded ? 'lowestDefinition' : 'definitionRestored', templateId: target.id });
    }
    this.restart(target);
  }

  private restart(model: DefinitionModel): void {
    this.release();
    this.effective = model;
    this.start();
  }

  private request(): void {
    const opened = this.deps.openStream(
      {
        message: (msg) => this.onStreamMessage(msg),
        data: (payload) => this.onData(payload),
        // The owner asked the relayed stream by its own choice for all its viewers: that is what runs.
        relayed: (about) => {
          if (!opened.ok || this.stream !== opened.stream) return;
          this.codecSent = about.codec;
          this.passThroughSent = about.passThrough;
        },
      },
      this.commonDecoders(),
    );
    if (!opened.ok) {
      if (opened.reason === 'unsupported') this.deps.log.error({ shipId: this.deps.shipId, reason: opened.message }, 'ship cannot stream live');
      this.setState('offline', opened.reason === 'offline' ? 'ship link is down' : opened.message);
      return;
    }
    const { stream } = opened;
    this.stream = stream;
    this.local = opened.relayed !== true;
    this.splitter = new RelaySplitter();
    this.init = undefined;
    this.codecSent = this.codecFor(this.effective);
    this.passThroughSent = this.passThroughFor();
    this.about = {};
    const encode = { ...encodeSpec(this.effective, this.codecSent), ...(this.passThroughSent ? { passThrough: ['h265' as const] } : {}) };
    stream.send({ type: 'live.start', streamId: stream.id, cameraId: this.deps.cameraId, encode, audio: this.deps.audio ?? false });
    if (this.state !== 'playing') this.setState('starting');
  }

  /** Tells the agent to stop the current stream, if any. */
  private release(): void {
    const stream = this.stream;
    if (stream === undefined) return;
    this.stream = undefined;
    // Joiners must not get the ended stream's init or pictures: they wait for the next stream's.
    this.hub.reset();
    this.codec = undefined;
    this.init = undefined;
    for (const tap of this.taps()) tap.end(this);
    stream.send({ type: 'live.stop', streamId: stream.id });
    stream.close();
  }

  private taps(): Iterable<LiveMediaTap> {
    return this.local ? (this.deps.taps ?? []) : [];
  }

  private setState(state: StreamState, reason?: string): void {
    if (state === this.state && state !== 'offline') return;
    this.state = state;
    this.stateReason = reason;
    for (const v of this.viewers) v.sendJson({ type: 'status', state, ...(reason ? { reason } : {}) });
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

import type { FastifyBaseLogger } from 'fastify';
import { type DecoderPrefix, type LinkQueueMessage, decodesHevc } from '@ship-cctv/protocol';
import type { AgentGateway } from '../../core/ship-link/index.ts';
import { type Lease, StreamRegistry } from '../../core/media/stream-registry.ts';
import { type Access } from '../../core/orgs/access.ts';
import type { FleetService } from '../fleet/index.ts';
import { DEFAULT_DEFINITION_CONTROL, DefinitionController, type DefinitionControllerOptions } from './definition-controller.ts';
import type { MediaViewer } from '../../core/media/viewer.ts';
import { type LiveMediaTap, LiveSource } from './live-source.ts';
import { type LiveOrigin, type LiveStreamSpec, linkOrigin } from './live-origin.ts';
import { resolveStreamAccess } from '../fleet/index.ts';


export interface LiveServiceOptions {
  /** How long an unwatched uplink keeps running before the ship is told to stop (at most 10 s). */
  lingerMs: number;
  definitionControl?: DefinitionControllerOptions;
  retryMs?: number;
  /** Told of each automatic definition change of a ship's streams (counted in /metrics). */
  onDefinitionChange?: (shipId: string, decision: 'degrade' | 'restore') => void;
}

export interface LiveTicket {
  key: string;
  shipId: string;
  cameraId: string;
  orgId: string;
  waitSeconds: number;
  autoShutdown: { enabled: boolean; minutes: number; countdownSeconds: number };
  /** Whether the stream lingers after its last viewer leaves (a carousel's page does not: the next page already runs). */
  linger: boolean;
  /** Notices the viewer gets as the view starts (a rule that narrowed it says why). */
  notices: LiveAdmissionNotice[];
}

export interface LiveAdmissionNotice {
  code: 'budgetLowest';
  templateId: number;
}

/**
 * A feature's say on a live view before it starts (a data budget): undefined lets it start as asked;
 * `lowestOnly` starts it at the lowest definition of its group and tells the viewer why; a refusal
 * throws LiveRequestError with the feature's code.
 */
export type LiveAdmissionRule = (access: Access, view: { shipId: string; orgId: string; cameraId: string }) => Promise<{ lowestOnly: true; notice: 'budgetLowest' } | undefined>;

/** What a viewer's stream is, to find another running stream that carries the same. */
export interface StreamWants {
  cameraId: string;
  templateId: number;
  audio: boolean;
  /** The camera's own H.265 (a `+hevc` stream), not the H.264 one. */
  hevc: boolean;
}

/** A camera at a definition as the set of those known to pass H.265 names it: the ship and the stream's key without its codec variant. */
const passableKey = (shipId: string, key: string) => `${shipId}/${key.replace(/\+(hevc|avc)$/, '')}`;

/** The camera of a stream's key (`camera@template…`). */
const cameraOf = (key: string) => key.slice(0, key.indexOf('@'));

const wantsOf = (spec: LiveStreamSpec): StreamWants => ({ cameraId: spec.cameraId, templateId: spec.requested.id, audio: spec.audio, hevc: spec.hevc === true });

/** What `join` needs: the stream's key, whether it lingers, what it carries, and how to make it. */
export type JoinTicket = Pick<LiveTicket, 'key' | 'linger'> & { wants?: StreamWants; source: () => LiveSource };

interface Guest {
  ticket: JoinTicket;
  viewer: MediaViewer;
  shipId: string;
  /** The lease it holds now: on its carrier, then (after a move) on its own stream. */
  current: Lease<LiveSource>;
}

/**
 * Live video on shore: one uplink per (camera, definition) however many watch, started when the
 * first viewer comes, stopped a linger after the last leaves. Each source opens its uplink on its
 * ship's link (AgentGateway.openStream), which delivers it only what that ship sends about it; this
 * service turns each ship's uplink queue reports into definition switches.
 */
/** Whether a view of `cameraId` asked for on behalf of a feature (`on`) is a paged view (a carousel's cell). */
export type PagedViewRule = (access: Access, cameraId: string, on: { carouselId?: string | undefined }) => Promise<boolean>;

export class LiveService {
  private readonly registry: StreamRegistry<string, LiveSource>;
  private readonly controllers = new Map<string, DefinitionController>();
  /** What each degraded ship's streams carried (kbps) when its link was judged congested. */
  private readonly congestedKbps = new Map<string, number>();
  private readonly taps = new Set<LiveMediaTap>();
  /** Viewers riding another request's stream that carries their definition (see join). */
  private readonly guests = new Set<Guest>();
  private origin: LiveOrigin;

  constructor(
    private readonly fleet: FleetService,
    gateway: AgentGateway,
    private readonly log: FastifyBaseLogger,
    private readonly opts: LiveServiceOptions,
  ) {
    this.origin = linkOrigin(gateway);
    this.registry = new StreamRegistry<string, LiveSource>({
      lingerMs: opts.lingerMs,
      onStopError: (err, key) => log.error({ err, key }, 'stopping a live stream failed'),
    });
    gateway.events.on('queue', (shipId, report) => this.onQueueReport(shipId, report));
    gateway.events.on('online', (shipId) => {
      for (const s of this.sourcesOf(shipId)) s.onAgentOnline();
    });
    gateway.events.on('offline', (shipId) => {
      this.controllers.delete(shipId);
      this.congestedKbps.delete(shipId);
      for (const s of this.sourcesOf(shipId)) s.onAgentOffline();
    });
  }

  /**
   * The ship says a camera stopped sending pictures (or sends again): the camera's streams tell
   * their viewers at once, so a frozen picture is explained, and the viewers wait on the stream
   * they have (it goes on with the camera's first picture back) instead of reconnecting.
   */
  cameraSending(shipId: string, cameraId: string, sending: boolean): void {
    if (sending) return; // the first fragment back says `playing`
    for (const s of this.sourcesOf(shipId)) if (s.cameraId === cameraId) s.onCameraSilent();
  }

  /**
   * Cameras (at a definition) whose ship said they send H.265 (live.started), and whether it goes up
   * as it is there: `yes` (a stream asked for it and got it), `no` (one asked and was transcoded: the
   * camera does not fit the definition), `maybe` (not asked yet). Viewers that decode H.265 get a
   * stream of their own unless it is `no`.
   */
  private readonly hevcCameras = new Map<string, 'yes' | 'no' | 'maybe'>();

  /**
   * The codec each camera sends as its ship reports it (hello and camera reports, `ship/camera`):
   * known from the agent's hello, so a shore that restarted (or never ran a stream of the camera)
   * chooses the first viewer's stream as it would with the camera's streams behind it.
   */
  private readonly cameraCodecs = new Map<string, 'h264' | 'h265'>();

  /** The ship reported the codec of a camera (absent: an agent that does not say, or not known yet: what was learnt stays). */
  cameraCodec(shipId: string, cameraId: string, codec: 'h264' | 'h265' | undefined): void {
    if (codec) this.cameraCodecs.set(`${shipId}/${cameraId}`, codec);
  }

  /** What the ship last reported of a camera's codec (tests, introspection). */
  reportedCameraCodec(shipId: string, cameraId: string): 'h264' | 'h265' | undefined {
    return this.cameraCodecs.get(`${shipId}/${cameraId}`);
  }

  private readonly pagedViewRules: PagedViewRule[] = [];

  /**
   * A feature whose views turn pages (a carousel) says which views are its own: they are not one
   * continuous watch of a channel, so the continuous-watching limit leaves them alone, and their
   * streams stop as soon as the page leaves (no linger: the next page runs already).
   */
  exemptPagedViews(rule: PagedViewRule): void {
    this.pagedViewRules.push(rule);
  }

  private readonly admissionRules: LiveAdmissionRule[] = [];

  /** A feature that may narrow or refuse new live views (data budgets) says so here; running views are not asked again. */
  admitViews(rule: LiveAdmissionRule): void {
    this.admissionRules.push(rule);
  }

  /** Checks access and picks the definition; throws ApiError (403/404) or LiveRequestError. */
  async resolve(
    access: Access,
    cameraId: string,
    templateId: number | undefined,
    on?: { carouselId?: string | undefined; decoders?: ReadonlySet<DecoderPrefix> | undefined },
  ): Promise<LiveTicket & JoinTicket> {
    const { requested: asked, lowest, audio, ...ticket } = await resolveStreamAccess(this.fleet, access, cameraId, templateId);
    let requested = asked;
    const notices: LiveAdmissionNotice[] = [];
    for (const rule of this.admissionRules) {
      const verdict = await rule(access, { shipId: ticket.shipId, orgId: ticket.orgId, cameraId });
      if (verdict?.lowestOnly && requested.id !== lowest.id) {
        requested = lowest;
        notices.push({ code: verdict.notice, templateId: lowest.id });
      }
    }
    let paged = false;
    if (on?.carouselId) {
      for (const rule of this.pagedViewRules) {
        if (await rule(access, cameraId, on)) {
          paged = true;
          break;
        }
      }
    }
    if (paged) ticket.autoShutdown = { ...ticket.autoShutdown, enabled: false };
    // Sound on or off is a different stream (a ship's flag changed while one ran: the next joins the new one).
    const base = `${cameraId}@${requested.id}${audio ? '+audio' : ''}`;
    const variant = this.codecVariant(base, ticket.shipId, on?.decoders);
    const hevc = variant === '+hevc';
    const spec: LiveStreamSpec = {
      key: `${base}${variant}`,
      shipId: ticket.shipId,
      cameraId,
      requested,
      lowest,
      audio,
      ...(hevc ? { hevc } : {}),
    };
    return { ...ticket, linger: !paged, notices, key: spec.key, wants: wantsOf(spec), source: () => this.sourceFor(spec, on?.decoders) };
  }

  /**
   * Which stream of a camera and definition a viewer joins. A camera not known to send H.265, or
   * known not to fit the definition (transcoded whatever the viewers decode): the one stream (its
   * source asks for the camera's H.265 while every viewer decodes it). One known to send H.265: a
   * viewer that decodes H.265 joins the stream of the camera's own pictures — the `+hevc` one, or
   * the plain one while that passes H.265 through (the first viewers, before shore knew) — and the
   * others the one stream in H.264, transcoded once on the ship for all of them (`+avc` while the
   * plain one passes H.265 through). So each kind of viewer has one stream, and there are two only
   * while both kinds watch.
   */
  private codecVariant(base: string, shipId: string, decoders: ReadonlySet<DecoderPrefix> | undefined): '' | '+hevc' | '+avc' {
    const reported = this.cameraCodecs.get(`${shipId}/${cameraOf(base)}`);
    // What the ship reports now outweighs what a stream once said: a camera set to H.264 since is H.264.
    if (reported === 'h264') return '';
    // A camera the ship reports as H.265 that no stream has tried at this definition yet: it may fit.
    const passable = this.hevcCameras.get(passableKey(shipId, base)) ?? (reported === 'h265' ? 'maybe' : undefined);
    if (passable === undefined || passable === 'no') return '';
    const plain = this.registry.get(base);
    const plainPasses = plain !== undefined && !plain.isStopped && plain.passesHevc;
    if (decodesHevc(decoders)) return plainPasses ? '' : '+hevc';
    return plainPasses ? '+avc' : '';
  }


  /**
   * Where sources get their streams from now on (a cluster: the ship's link here, or its owner
   * elsewhere). Streams already running keep their origin.
   */
  useOrigin(origin: LiveOrigin): void {
    this.origin = origin;
  }

  /**
   * Joins a stream for a viewer on another instance (the owner's side of a cluster): the same
   * sharing as a local viewer, without the access check the other instance made. No linger on
   * leaving: the other instance lingered already. The stream of the camera it joins (its H.265 one
   * or the H.264 one) is chosen here, by what this instance knows of the camera and what the
   * viewer's instance said its viewers decode, as for a viewer of this instance.
   */
  joinFor(spec: LiveStreamSpec, viewer: MediaViewer): Lease<LiveSource> {
    const base = spec.key.replace(/\+(hevc|avc)$/, '');
    const variant = this.codecVariant(base, spec.shipId, viewer.decoders);
    const { hevc: _asked, ...rest } = spec;
    const own: LiveStreamSpec = { ...rest, key: `${base}${variant}`, ...(variant === '+hevc' ? { hevc: true } : {}) };
    return this.join({ key: own.key, linger: false, wants: wantsOf(own), source: () => this.sourceFor(own, viewer.decoders) }, viewer);
  }

  private sourceFor(spec: LiveStreamSpec, firstDecoders?: ReadonlySet<DecoderPrefix>): LiveSource {
    const { shipId, cameraId, requested, lowest, audio } = spec;
    const origin = this.origin;
    return new LiveSource({
      encodes: (codec) => origin.encodes?.(shipId, codec) ?? codec === 'h264',
      ...(firstDecoders ? { firstDecoders } : {}),
      ...(spec.hevc ? { hevc: true } : {}),
      onCameraCodec: (src, codec, passable) => {
        // What the stream runs at now is what it was asked at (not the lowest a slow link fell to).
        if (src.definition.id !== src.requestedDefinition.id) return;
        const key = passableKey(src.shipId, spec.key);
        if (codec === 'h264') this.hevcCameras.delete(key);
        else this.hevcCameras.set(key, passable === undefined ? (this.hevcCameras.get(key) ?? 'maybe') : passable ? 'yes' : 'no');
      },
      openStream: (handler, decoders) => this.origin.open(spec, handler, decoders),
      shipId,
      cameraId,
      requested,
      lowest,
      audio,
      log: this.log,
      onLag: (src, excessMs) => this.onQueue(src.shipId, excessMs),
      taps: this.taps,
      ...(this.opts.retryMs !== undefined ? { retryMs: this.opts.retryMs } : {}),
    });
  }

  /** Lets `tap` see the media of every live stream as it passes; answers the function that stops it. */
  tapMedia(tap: LiveMediaTap): () => void {
    this.taps.add(tap);
    return () => this.taps.delete(tap);
  }

  /**
   * Adds a viewer to the ticket's stream, starting the uplink if nobody watched it; release the
   * lease to leave. When the ship's link is degraded, another stream of the camera may be carrying
   * the very definition asked for (a stream asked at a higher one, dropped to the lowest): the
   * viewer joins that uplink as its guest instead of starting a second stream of the same camera
   * and definition, and moves to a stream of its own when the carrier steps back up.
   */
  join(ticket: JoinTicket, viewer: MediaViewer): Lease<LiveSource> {
    const carrier = ticket.wants && !this.registry.get(ticket.key) ? this.carrierOf(ticket.wants) : undefined;
    if (!carrier) return this.joinOwn(ticket, viewer);
    const lease = this.registry.lease(carrier, () => {
      throw new Error('the carrying stream is gone');
    });
    lease.source.addViewer(viewer, ticket.wants?.templateId);
    const guest: Guest = { ticket, viewer, current: lease, shipId: lease.source.shipId };
    this.guests.add(guest);
    this.log.info({ key: ticket.key, carrier }, 'live: joined a running stream of the same definition (no second uplink)');
    return {
      get source() {
        return guest.current.source;
      },
      release: () => {
        this.guests.delete(guest);
        guest.current.source.removeViewer(viewer);
        guest.current.release({ linger: ticket.linger });
        this.judgeLighterLoad(guest.shipId);
      },
    };
  }

  private joinOwn(ticket: JoinTicket, viewer: MediaViewer): Lease<LiveSource> {
    let fresh: LiveSource | undefined;
    if (!this.registry.get(ticket.key)) {
      // A new stream on a degraded ship: if the ship now carries less than when it congested, all
      // its streams step back up first and this one starts at the definition asked for.
      fresh = ticket.source();
      this.judgeLighterLoad(fresh.shipId, fresh.requestedDefinition.bitrateKbps);
    }
    const lease = this.registry.lease(ticket.key, () => {
      const s = fresh ?? ticket.source();
      // Another stream of the ship still running keeps the verdict current; with none, it may be stale.
      const others = this.sourcesOf(s.shipId).length > 0;
      const ctl = this.controllers.get(s.shipId);
      if (ctl && (others ? ctl.isDegraded : ctl.degradedForNewStream(Date.now()))) s.setDegraded(true);
      s.start();
      return s;
    });
    lease.source.addViewer(viewer);
    return {
      source: lease.source,
      release: () => {
        lease.source.removeViewer(viewer);
        lease.release({ linger: ticket.linger });
        this.judgeLighterLoad(lease.source.shipId);
      },
    };
  }

  /**
   * A degraded ship whose watched streams, at the definitions asked for (plus `startingKbps`, a
   * stream about to start), come to less than it carried when its link congested: the verdict
   * was about a heavier load (a 16-cell grid made 1-cell), so the streams step back up now rather
   * than after the hold time, and the link is measured afresh (a relapse doubles the hold). Streams
   * nobody watches any more (lingering) stop instead of stepping up.
   */
  private judgeLighterLoad(shipId: string, startingKbps = 0): void {
    const ctl = this.controllers.get(shipId);
    const congested = this.congestedKbps.get(shipId);
    if (!ctl?.isDegraded || congested === undefined) return;
    const watched = this.registry.entries().filter((e) => e.source.shipId === shipId && !e.lingering);
    const kbps = watched.reduce((sum, e) => sum + e.source.requestedDefinition.bitrateKbps, startingKbps);
    if (kbps === 0 || kbps >= congested) return;
    ctl.judgeAfresh(Date.now());
    this.congestedKbps.delete(shipId);
    this.log.info({ shipId, kbps, congestedKbps: congested }, 'ship uplink definition change: lighter load than when it congested');
    this.opts.onDefinitionChange?.(shipId, 'restore');
    for (const e of this.registry.entries()) {
      if (e.source.shipId === shipId && e.lingering) this.registry.evict(e.key, { stop: true });
    }
    this.restoreWithGuests(shipId);
  }

  /** The key of a running stream of another request that now carries exactly what `wants` asks for. */
  private carrierOf(wants: StreamWants): string | undefined {
    return this.registry
      .entries()
      .find(
        (e) =>
          e.source.cameraId === wants.cameraId &&
          e.source.hasAudio === wants.audio &&
          (e.source.isHevcStream || e.source.passesHevc) === wants.hevc &&
          e.source.definition.id === wants.templateId &&
          e.source.currentState !== 'offline',
      )?.key;
  }

  /**
   * The ship's streams step back up: each guest leaves its carrier before the carrier changes
   * definition (it must not get the higher one), and gets the stream it asked for once the
   * carriers have moved on — so the ship never runs two streams of one camera and definition.
   */
  private restoreWithGuests(shipId: string): void {
    const moving = [...this.guests].filter((g) => g.shipId === shipId);
    for (const guest of moving) {
      guest.current.source.removeViewer(guest.viewer);
      this.guests.delete(guest);
    }
    for (const s of this.sourcesOf(shipId)) s.setDegraded(false);
    for (const guest of moving) {
      const old = guest.current;
      guest.current = this.joinOwn(guest.ticket, guest.viewer);
      old.release({ linger: guest.ticket.linger });
    }
  }

  /**
   * A viewer switched this stream's camera to another definition: if nobody else holds the stream
   * it left, it stops now instead of lingering beside the new one on the ship's uplink (a grid
   * resized from 4 to 16 cells would otherwise carry both definitions of every cell for the linger).
   */
  stopLeftBehind(source: LiveSource): void {
    const entry = this.registry.entries().find((e) => e.source === source);
    if (entry?.lingering) this.registry.evict(entry.key, { stop: true });
  }

  /**
   * The ship's streams are to be had again, through another instance (its agent connected there):
   * every source of the ship without a stream — offline since its link here went, or waiting to
   * retry — opens it again through the origin, and its viewers get the new stream's init and
   * pictures on the sockets they have.
   */
  reopenShip(shipId: string): void {
    for (const s of this.sourcesOf(shipId)) s.onAgentOnline();
  }

  /** Ships with a stream waiting offline here (their link went and has not come back to this instance). */
  offlineShips(): string[] {
    return [...new Set(this.sourcesOf(undefined).filter((s) => s.currentState === 'offline').map((s) => s.shipId))];
  }

  /** Uplinks currently requested from ships (for tests and introspection). */
  activeStreams(): { key: string; shipId: string; viewers: number; definition: number; state: string; lingering: boolean }[] {
    return this.registry.entries().map((e) => ({
      key: e.key,
      shipId: e.source.shipId,
      viewers: e.source.viewerCount,
      definition: e.source.definition.id,
      state: e.source.currentState,
      lingering: e.lingering,
    }));
  }

  /** The server closes: every stream stops (the taps are told first: nobody left because they chose to). */
  stopAll(): void {
    for (const tap of this.taps) tap.closing?.();
    this.registry.stopAll();
  }

  /** The sources of one ship (undefined: of every ship). */
  private sourcesOf(shipId: string | undefined): LiveSource[] {
    return this.registry
      .entries()
      .map((e) => e.source)
      .filter((s) => shipId === undefined || s.shipId === shipId);
  }

  /** A measure of the ship's uplink backlog (ms): from the ship's report, or the stream lag seen on shore. */
  private onQueue(shipId: string, queuedMs: number): void {
    let ctl = this.controllers.get(shipId);
    if (!ctl) {
      ctl = new DefinitionController(this.opts.definitionControl ?? DEFAULT_DEFINITION_CONTROL);
      this.controllers.set(shipId, ctl);
    }
    const decision = ctl.report(queuedMs, Date.now());
    if (!decision) return;
    this.log.info({ shipId, queuedMs, decision }, 'ship uplink definition change');
    this.opts.onDefinitionChange?.(shipId, decision);
    if (decision === 'restore') {
      this.congestedKbps.delete(shipId);
      return this.restoreWithGuests(shipId);
    }
    this.congestedKbps.set(shipId, this.sourcesOf(shipId).reduce((sum, s) => sum + s.definition.bitrateKbps, 0));
    for (const s of this.sourcesOf(shipId)) s.setDegraded(true);
  }

  private onQueueReport(shipId: string, msg: LinkQueueMessage): void {
    // The ship sees only its own socket buffer, not the bytes already in the kernel or the modem:
    // a high figure is congestion, a low one proves nothing. Clear readings come from the lag
    // measured on shore.
    const ctl = this.controllers.get(shipId);
    const mark = (this.opts.definitionControl ?? DEFAULT_DEFINITION_CONTROL).degradeAboveMs;
    if (msg.queuedMs > mark && !ctl?.isDegraded) this.onQueue(shipId, msg.queuedMs);
  }
}

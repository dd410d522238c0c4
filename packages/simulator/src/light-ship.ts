import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import {
  AGENT_HEADERS,
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  type BackoffRange,
  type CameraState,
  INBOX_ON_DEMAND_VERSION,
  type LinkReport,
  PATHS,
  type ShoreMessage,
  checkShoreMessage,
  parseJson,
  RedialPlan,
} from '@ship-cctv/protocol';

/** What a light ship can do: everything but video (no live, playback or talk streams). */
export const LIGHT_SHIP_CAPABILITIES = ['pictures'] as const;

export interface LightShipOptions {
  /** Where to dial: one URL, or asked at every dial (a balancer's choice: the next instance in turn, a random one). */
  shoreUrl: string | (() => string);
  shipId: string;
  key: string;
  /** The ship's cameras (all online and recording unless told otherwise). */
  cameraIds?: readonly string[];
  link?: LinkReport;
  /** Redial backoff (default 1 s doubling to 30 s, as the real agent). */
  backoff?: BackoffRange;
  /** A ping to shore this often (the real agent measures its link so; default 5 s, 0: none). */
  pingEveryMs?: number;
  /** A link report this often (the real agent's measured report; default 60 s, 0: none). */
  reportEveryMs?: number;
  /** Nothing heard from shore this long: the ship redials (default 30 s, as the real agent). */
  silenceTimeoutMs?: number;
  /** The kinds the hello lists (default LIGHT_SHIP_CAPABILITIES). */
  capabilities?: readonly string[];
  /** The highest link version the hello offers (default AGENT_LINK_VERSION): an older agent's link, to compare. */
  maxProtocol?: number;
}

export interface LightShipEvents {
  /** Shore welcomed the hello: the ship is online. */
  welcome: [];
  /** Shore refused the hello for now and named when to come back. */
  retryLater: [retryAfterMs: number];
  /** The link closed; the ship dials again after `delayMs`. */
  closed: [code: number, reason: string, delayMs: number];
  /** Shore refused the upgrade (HTTP status: unknown ship or wrong key). */
  rejected: [status: number];
  /** A dial began (the first one or a redial). */
  dialing: [];
}

/**
 * A ship without video: it speaks the real agent's link protocol — hello with its whole state,
 * link and camera reports, pings, answers to shore's pings, the pictures inbox when shore opens
 * one (it holds no tasks and has nothing in its outbox, so it never asks for one and says `idle`
 * on one shore opens) — and redials as the real agent does (redialDelay: shore's
 * retry-after when its refusal names one, jittered exponential backoff otherwise, quick redials
 * for a while after shore closed the link saying it restarts: RedialPlan). One process
 * holds thousands: a ship is one WebSocket and a few timers.
 */
export class LightShip extends EventEmitter<LightShipEvents> {
  private ws: WebSocket | undefined;
  private stopped = true;
  private readonly redials: RedialPlan;
  private retryAfterMs: number | undefined;
  private redialTimer: NodeJS.Timeout | undefined;
  private tick: NodeJS.Timeout | undefined;
  private lastHeard = 0;
  private lastReport = 0;
  private readonly cameras = new Map<string, CameraState>();
  private linkReport: LinkReport;
  /** Whether shore welcomed the current link's hello. */
  online = false;
  /** Dials so far, welcomes so far, refusals so far (retryLater). */
  readonly counts = { dials: 0, welcomes: 0, refusals: 0 };

  constructor(private readonly opts: LightShipOptions) {
    super();
    this.linkReport = opts.link ?? { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
    this.redials = new RedialPlan(opts.backoff ?? { minMs: 1_000, maxMs: 30_000 });
    const since = Date.now();
    for (const cameraId of opts.cameraIds ?? []) this.cameras.set(cameraId, { cameraId, online: true, recording: true, recordingSince: since });
  }

  get shipId(): string {
    return this.opts.shipId;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.dial();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.redialTimer);
    clearInterval(this.tick);
    const ws = this.ws;
    this.ws = undefined;
    this.online = false;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000, 'agent stopping');
      setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2_000).unref();
    });
  }

  /** The link changed (a beam switch, another terminal): reported at once, as the real agent does. */
  setLink(report: LinkReport): void {
    this.linkReport = report;
    this.send({ type: 'link', ...report });
  }

  /** A camera's state changed: reported when it differs. */
  setCamera(state: CameraState): void {
    const before = this.cameras.get(state.cameraId);
    if (!before) return;
    this.cameras.set(state.cameraId, state);
    if (before.online !== state.online || before.recording !== state.recording || before.recordingSince !== state.recordingSince) {
      this.send({ type: 'camera', ...state });
    }
  }

  private dial(): void {
    if (this.stopped) return;
    this.counts.dials += 1;
    this.emit('dialing');
    const shoreUrl = typeof this.opts.shoreUrl === 'string' ? this.opts.shoreUrl : this.opts.shoreUrl();
    const ws = new WebSocket(new URL(PATHS.agentLink, shoreUrl), {
      headers: {
        [AGENT_HEADERS.shipId]: this.opts.shipId,
        [AGENT_HEADERS.authorization]: `Ship ${this.opts.key}`,
        [AGENT_HEADERS.protocol]: `${AGENT_LINK_MIN_VERSION}-${AGENT_LINK_VERSION}`,
      },
      handshakeTimeout: 30_000,
      perMessageDeflate: false,
    });
    this.ws = ws;
    this.retryAfterMs = undefined;
    ws.on('ping', () => (this.lastHeard = Date.now()));
    ws.on('pong', () => (this.lastHeard = Date.now()));
    ws.on('open', () => {
      this.lastHeard = Date.now();
      this.lastReport = this.lastHeard;
      this.send({
        type: 'hello',
        protocol: { min: AGENT_LINK_MIN_VERSION, max: this.opts.maxProtocol ?? AGENT_LINK_VERSION },
        agentVersion: 'light-ship',
        capabilities: [...(this.opts.capabilities ?? LIGHT_SHIP_CAPABILITIES)],
        link: this.linkReport,
        cameras: [...this.cameras.values()],
      });
      this.startTicking(ws);
    });
    ws.on('message', (data, isBinary) => {
      this.lastHeard = Date.now();
      if (isBinary) return;
      const json = parseJson((Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer)).toString('utf8'));
      if (!json.ok) return;
      const checked = checkShoreMessage(json.value);
      if (checked.ok) this.receive(checked.message);
    });
    ws.on('unexpected-response', (_req, res) => {
      this.emit('rejected', res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => undefined); // 'close' follows and schedules the redial
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.online = false;
      clearInterval(this.tick);
      const delay = this.redials.closed(code, this.retryAfterMs);
      this.emit('closed', code, reason.toString(), delay);
      if (this.stopped) return;
      this.redialTimer = setTimeout(() => this.dial(), delay);
      this.redialTimer.unref();
    });
  }

  private receive(msg: ShoreMessage): void {
    switch (msg.type) {
      case 'welcome':
        // Only a welcomed hello ends the backoff: a link shore closes at once must not redial at the shortest delay.
        this.redials.welcomed();
        this.online = true;
        this.counts.welcomes += 1;
        this.emit('welcome');
        return;
      case 'error':
        if (msg.code === 'retryLater' && msg.retryAfterMs !== undefined) {
          this.retryAfterMs = msg.retryAfterMs;
          this.counts.refusals += 1;
          this.emit('retryLater', msg.retryAfterMs);
        }
        return;
      case 'pictures.tasks':
        // It keeps no tasks: it holds none of them, and has nothing to send (shore closes the inbox).
        this.send({ type: 'pictures.tasksHeld', streamId: msg.streamId, taskIds: [] });
        if ((this.opts.maxProtocol ?? AGENT_LINK_VERSION) >= INBOX_ON_DEMAND_VERSION) this.send({ type: 'pictures.idle', streamId: msg.streamId });
        return;
      case 'pictures.take':
        this.send({ type: 'pictures.failed', streamId: msg.streamId, code: 'cameraOffline', message: 'a light ship takes no pictures' });
        return;
      case 'pictures.list':
        this.send({ type: 'pictures.listed', streamId: msg.streamId, cameraId: msg.cameraId, pictures: [], truncated: false });
        return;
      case 'pictures.fetch':
        this.send({ type: 'pictures.failed', streamId: msg.streamId, code: 'notFound', message: 'a light ship keeps no pictures' });
        return;
      default:
        // Nothing in the outbox to offer on an inbox; acknowledgements need no answer.
        return;
    }
  }

  /** One timer per link: pings, the periodic link report and the silence check. */
  private startTicking(ws: WebSocket): void {
    clearInterval(this.tick);
    const pingEveryMs = this.opts.pingEveryMs ?? 5_000;
    const reportEveryMs = this.opts.reportEveryMs ?? 60_000;
    const silenceMs = this.opts.silenceTimeoutMs ?? 30_000;
    const everyMs = Math.min(...[pingEveryMs, reportEveryMs, 5_000].filter((n) => n > 0));
    this.tick = setInterval(() => {
      const now = Date.now();
      if (now - this.lastHeard > silenceMs) return ws.terminate();
      if (ws.readyState !== WebSocket.OPEN) return;
      if (pingEveryMs > 0) ws.ping();
      if (reportEveryMs > 0 && now - this.lastReport >= reportEveryMs && this.online) {
        this.lastReport = now;
        this.send({ type: 'link', ...this.linkReport, measured: { periodMs: reportEveryMs } });
      }
    }, everyMs);
    this.tick.unref();
  }

  private send(msg: AgentMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }
}

export interface LightFleetOptions extends Omit<LightShipOptions, 'shipId' | 'key' | 'shoreUrl'> {
  /** Where each ship dials: one URL for all, or asked at every dial of every ship (a balancer's choice). */
  shoreUrl: string | (() => string);
  ships: readonly { shipId: string; key: string; cameraIds?: readonly string[] }[];
  /** Dials start this far apart, ms (0: all at once, as after a shore restart). */
  staggerMs?: number;
}

/** Many light ships in one process, with the fleet's counts. */
export class LightFleet {
  readonly ships: LightShip[];

  constructor(private readonly opts: LightFleetOptions) {
    this.ships = opts.ships.map((s) => {
      return new LightShip({ ...opts, shipId: s.shipId, key: s.key, cameraIds: s.cameraIds ?? opts.cameraIds ?? [] });
    });
  }

  start(): void {
    const stagger = this.opts.staggerMs ?? 0;
    this.ships.forEach((ship, i) => {
      if (stagger <= 0) ship.start();
      else setTimeout(() => ship.start(), i * stagger).unref();
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.ships.map((s) => s.stop()));
  }

  get online(): number {
    let n = 0;
    for (const s of this.ships) if (s.online) n += 1;
    return n;
  }

  totals(): { dials: number; welcomes: number; refusals: number } {
    const t = { dials: 0, welcomes: 0, refusals: 0 };
    for (const s of this.ships) {
      t.dials += s.counts.dials;
      t.welcomes += s.counts.welcomes;
      t.refusals += s.counts.refusals;
    }
    return t;
  }
}

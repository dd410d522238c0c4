import type { FastifyBaseLogger } from 'fastify';
import { BINARY_KIND, type ShipPlaybackCommand } from '@ship-cctv/protocol';
import type { AgentGateway } from '../agent-link/gateway.ts';
import { LiveRequestError } from '../live/live-service.ts';
import type { LiveViewer } from '../live/live-source.ts';
import { chooseTemplate } from '../live/templates.ts';
import type { Access } from '../services/access.ts';
import type { FleetService } from '../services/fleet.ts';
import { PLAYBACK_FLOW_DEFAULTS, type PlaybackFlowOptions, PlaybackRun, type PlaybackTicket } from './playback-run.ts';

export interface PlaybackServiceOptions {
  /** How long the ship has to start a playback stream. */
  startTimeoutMs: number;
  flow: PlaybackFlowOptions;
}

export const PLAYBACK_SERVICE_DEFAULTS: PlaybackServiceOptions = { startTimeoutMs: 30_000, flow: PLAYBACK_FLOW_DEFAULTS };

/**
 * Playback stream ids start here so they never meet a live stream's id (live counts up from 1):
 * the kind byte already tells them apart on the link, but an id names one stream in logs and on
 * the ship whatever its kind.
 */
const FIRST_STREAM_ID = 0x4000_0000;

/**
 * Ship-end playback on shore: resolves a viewer's request (access, definition), starts a run per
 * viewer, and routes the agents' playback messages and kind-2 bytes to their runs.
 */
export class PlaybackService {
  private readonly byStreamId = new Map<number, PlaybackRun>();
  private readonly runs = new Set<PlaybackRun>();
  private readonly opts: PlaybackServiceOptions;
  private nextStreamId = FIRST_STREAM_ID;

  constructor(
    private readonly fleet: FleetService,
    private readonly gateway: AgentGateway,
    private readonly log: FastifyBaseLogger,
    opts: Partial<PlaybackServiceOptions> = {},
  ) {
    this.opts = { ...PLAYBACK_SERVICE_DEFAULTS, ...opts };
    gateway.events.on('binary', (shipId, kind, payload) => {
      if (kind !== BINARY_KIND.playback || payload.length < 4) return;
      const run = this.byStreamId.get(payload.readUInt32BE(0));
      if (run?.shipId === shipId) run.onData(payload.subarray(4));
    });
    gateway.events.on('playback', (shipId, msg) => {
      if (!('streamId' in msg)) return;
      const run = this.byStreamId.get(msg.streamId);
      if (run?.shipId === shipId) run.onAgentMessage(msg);
    });
    gateway.events.on('online', (shipId) => {
      for (const run of this.runsOf(shipId)) run.onAgentOnline();
    });
    gateway.events.on('offline', (shipId) => {
      for (const run of this.runsOf(shipId)) run.onAgentOffline();
    });
  }

  /** Checks access and picks the definition; throws ApiError (403/404) or LiveRequestError (noDefaultTemplate, badRequest). */
  async resolve(access: Access, cmd: ShipPlaybackCommand): Promise<PlaybackTicket> {
    const { ship, org } = await this.fleet.requireCamera(access, cmd.cameraId);
    const config = await this.fleet.shipConfig(access, ship.orgId, ship.id);
    const choice = chooseTemplate(config, cmd.templateId);
    if (!choice.ok) {
      if (choice.error === 'noDefaultTemplate') throw new LiveRequestError('noDefaultTemplate', '无默认清晰度模板 (no default definition template)');
      throw new LiveRequestError('badRequest', `definition template ${cmd.templateId} is not configured for this ship`);
    }
    return {
      shipId: ship.id,
      cameraId: cmd.cameraId,
      orgId: org.id,
      waitSeconds: org.waitTimeSeconds,
      autoShutdown: { enabled: org.autoShutdownEnabled, minutes: org.autoShutdownMinutes, countdownSeconds: org.autoShutdownCountdownSeconds },
      model: choice.requested,
      start: cmd.start,
      end: cmd.end,
      from: cmd.start,
      speed: cmd.speed,
      ...(cmd.timeZone !== undefined ? { timeZone: cmd.timeZone } : {}),
    };
  }

  /** Starts sending the ticket's recording to the viewer, from `ticket.from`; `onFinish` when it is over. */
  start(ticket: PlaybackTicket, viewer: LiveViewer, onFinish: () => void): PlaybackRun {
    const run = new PlaybackRun({
      gateway: this.gateway,
      ticket,
      viewer,
      allocateStreamId: () => this.allocateStreamId(),
      onStreamId: (r, previous, next) => {
        if (previous !== undefined) this.byStreamId.delete(previous);
        if (next !== undefined) this.byStreamId.set(next, r);
      },
      onFinish: (r) => {
        this.runs.delete(r);
        onFinish();
      },
      log: this.log,
      startTimeoutMs: this.opts.startTimeoutMs,
      flow: this.opts.flow,
    });
    this.runs.add(run);
    this.log.info({ shipId: ticket.shipId, cameraId: ticket.cameraId, from: ticket.from, end: ticket.end, speed: ticket.speed, timeZone: ticket.timeZone }, 'ship playback');
    run.start();
    return run;
  }

  /** Playbacks running now (for tests and introspection). */
  active(): PlaybackRun['snapshot'][] {
    return [...this.runs].map((r) => r.snapshot);
  }

  stopAll(): void {
    for (const run of [...this.runs]) run.stop();
  }

  private allocateStreamId(): number {
    const id = this.nextStreamId;
    this.nextStreamId = this.nextStreamId >= 0xffff_ffff ? FIRST_STREAM_ID : this.nextStreamId + 1;
    return id;
  }

  private runsOf(shipId: string): PlaybackRun[] {
    return [...this.runs].filter((r) => r.shipId === shipId);
  }
}

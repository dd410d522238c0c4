import type { FastifyBaseLogger } from 'fastify';
import type { ShipPlaybackCommand } from '@ship-cctv/protocol';
import type { LinkStreams } from '../../core/ship-link/index.ts';
import type { MediaViewer } from '../../core/media/viewer.ts';
import { resolveStreamAccess } from '../fleet/index.ts';
import type { Access } from '../../core/orgs/access.ts';
import type { FleetService } from '../fleet/index.ts';
import { PLAYBACK_FLOW_DEFAULTS, type PlaybackFlowOptions, PlaybackRun, type PlaybackTicket } from './playback-run.ts';

export interface PlaybackServiceOptions {
  /** How long the ship has to start a playback stream. */
  startTimeoutMs: number;
  flow: PlaybackFlowOptions;
}

export const PLAYBACK_SERVICE_DEFAULTS: PlaybackServiceOptions = { startTimeoutMs: 30_000, flow: PLAYBACK_FLOW_DEFAULTS };

/**
 * Ship-end playback on shore: resolves a viewer's request (access, definition), starts a run per
 * viewer; each run opens its streams on its ship's link (LinkStreams.openStream: here, or through the
 * ship's owner), which delivers it only what that ship sends about them.
 */
export class PlaybackService {
  private readonly runs = new Set<PlaybackRun>();
  private readonly opts: PlaybackServiceOptions;

  constructor(
    private readonly fleet: FleetService,
    private readonly streams: LinkStreams,
    private readonly log: FastifyBaseLogger,
    opts: Partial<PlaybackServiceOptions> = {},
  ) {
    this.opts = { ...PLAYBACK_SERVICE_DEFAULTS, ...opts };
    streams.events.on('online', (shipId) => {
      for (const run of this.runsOf(shipId)) run.onAgentOnline();
    });
    streams.events.on('offline', (shipId) => {
      for (const run of this.runsOf(shipId)) run.onAgentOffline();
    });
  }

  /** Checks access and picks the definition; throws ApiError (403/404) or LiveRequestError (noDefaultTemplate, badRequest). */
  async resolve(access: Access, cmd: ShipPlaybackCommand): Promise<PlaybackTicket> {
    const a = await resolveStreamAccess(this.fleet, access, cmd.cameraId, cmd.templateId);
    return {
      shipId: a.shipId,
      cameraId: a.cameraId,
      orgId: a.orgId,
      waitSeconds: a.waitSeconds,
      autoShutdown: a.autoShutdown,
      model: a.requested,
      start: cmd.start,
      end: cmd.end,
      from: cmd.start,
      speed: cmd.speed,
      ...(cmd.timeZone !== undefined ? { timeZone: cmd.timeZone } : {}),
    };
  }

  /** Starts sending the ticket's recording to the viewer, from `ticket.from`; `onFinish` when it is over. */
  start(ticket: PlaybackTicket, viewer: MediaViewer, onFinish: () => void): PlaybackRun {
    const run = new PlaybackRun({
      openStream: (handler) => this.streams.openStream(ticket.shipId, 'playback', handler),
      ticket,
      viewer,
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

  private runsOf(shipId: string): PlaybackRun[] {
    return [...this.runs].filter((r) => r.shipId === shipId);
  }
}

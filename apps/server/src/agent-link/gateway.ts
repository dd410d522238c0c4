import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { type AgentMessage, type AgentPlaybackMessage, type AgentStreamMessage, AGENT_LINK_VERSION } from '@ship-cctv/protocol';
import type { StatusService } from '../status/status-service.ts';
import { AgentConnection, type LinkCounter, type LivenessOptions } from './connection.ts';

/** Close code sent to an older connection of a ship when a newer one arrives. */
export const CLOSE_REPLACED = 4000;

/**
 * The agents connected to this instance, one per ship. It turns their reports into fleet status
 * and is where later features (live streams, playback) find a ship's link.
 */
export interface GatewayEvents {
  /** The ship's agent said hello on a new connection (also after a reconnect). */
  online: [shipId: string, conn: AgentConnection];
  offline: [shipId: string];
  stream: [shipId: string, message: AgentStreamMessage];
  /** vod.* and playback.* messages of the ship recorder. */
  playback: [shipId: string, message: AgentPlaybackMessage];
  binary: [shipId: string, kind: number, payload: Buffer];
}

export class AgentGateway {
  private readonly connections = new Map<string, AgentConnection>();
  readonly events = new EventEmitter<GatewayEvents>();

  constructor(
    private readonly status: StatusService,
    private readonly counterFor: (shipId: string) => LinkCounter,
    private readonly liveness: LivenessOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  get(shipId: string): AgentConnection | undefined {
    return this.connections.get(shipId);
  }

  connectedShips(): string[] {
    return [...this.connections.keys()];
  }

  attach(shipId: string, ws: WebSocket, raw?: ConstructorParameters<typeof AgentConnection>[4]): AgentConnection {
    const conn = new AgentConnection(shipId, ws, this.counterFor(shipId), this.liveness, raw);
    const previous = this.connections.get(shipId);
    this.connections.set(shipId, conn);
    previous?.close(CLOSE_REPLACED, 'replaced by a newer connection');
    this.log.info({ shipId }, 'agent connected');

    conn.on('binary', (kind, payload) => {
      if (this.connections.get(shipId) === conn) this.events.emit('binary', shipId, kind, payload);
    });
    conn.on('message', (msg) => {
      this.handle(conn, msg).catch((err: unknown) => this.log.error({ err, shipId }, 'agent message failed'));
    });
    conn.on('close', (reason) => {
      this.log.info({ shipId, reason }, 'agent disconnected');
      if (this.connections.get(shipId) !== conn) return;
      this.connections.delete(shipId);
      this.events.emit('offline', shipId);
      this.status.agentOffline(shipId).catch((err: unknown) => this.log.error({ err, shipId }, 'marking ship offline failed'));
    });
    conn.send({ type: 'welcome', shipId, serverTime: Date.now() });
    return conn;
  }

  closeAll(): void {
    for (const conn of this.connections.values()) conn.close(1001, 'server shutting down');
    this.connections.clear();
  }

  private async handle(conn: AgentConnection, msg: AgentMessage): Promise<void> {
    if (this.connections.get(conn.shipId) !== conn) return;
    switch (msg.type) {
      case 'hello':
        if (msg.protocol !== AGENT_LINK_VERSION) {
          conn.send({ type: 'error', message: `agent link version ${msg.protocol} is not supported; shore speaks ${AGENT_LINK_VERSION}` });
          conn.close(4002, 'unsupported agent link version');
          return;
        }
        await this.status.agentOnline(conn.shipId, msg.link, msg.cameras);
        conn.markReady();
        if (this.connections.get(conn.shipId) === conn) this.events.emit('online', conn.shipId, conn);
        return;
      case 'link':
        await this.status.linkReport(conn.shipId, msg);
        return;
      case 'camera':
        await this.status.cameraReport(conn.shipId, msg);
        return;
      default:
        if (msg.type.startsWith('vod.') || msg.type.startsWith('playback.')) this.events.emit('playback', conn.shipId, msg as AgentPlaybackMessage);
        else this.events.emit('stream', conn.shipId, msg as AgentStreamMessage);
    }
  }
}

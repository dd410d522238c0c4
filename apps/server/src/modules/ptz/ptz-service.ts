import type { FastifyBaseLogger } from 'fastify';
import {
  type AgentMessageOf,
  CODES,
  PTZ_MOVE_TIMEOUT_MS,
  type PtzAction,
  type PtzCommandAnswer,
  type PtzEvent,
  type PtzPresetView,
  type ShoreMessageOf,
  dest,
} from '@ship-cctv/protocol';
import { type LinkStreams, ShipAskError, ask } from '../../core/ship-link/index.ts';
import { ApiError } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import type { FleetService } from '../fleet/index.ts';

/** The camera type (channel type, spec §3) of a camera that can be steered. */
export const PTZ_CAMERA_TYPE = 'ptz';

export interface PtzServiceOptions {
  /** How long the ship has to answer a command. Default 15 s (a VSAT round trip is ~0.6 s). */
  answerTimeoutMs?: number;
  now?: () => number;
}

/** Who sends a command: the user and the name the cells show. */
export interface PtzOperator {
  access: Access;
  displayName: string;
}

type PtzRequest = ShoreMessageOf<'ptz'>;
type Distribute<T> = T extends unknown ? Omit<T, 'requestId'> : never;
type PtzCommand = Distribute<PtzRequest>;

/** The camera cannot be steered (shore's camera type, or the ship says so): 409 with reason `notPtz`. */
const notPtz = (message: string) => new ApiError(CODES.conflict, message, 'notPtz');

/**
 * PTZ control on shore: each command is checked (the operator's organisations, a camera of type
 * ptz) and asked of the ship as one small request on the link (ask()); its answer is awaited. A
 * ship that is offline (503 `offline`), a camera that is not PTZ (409 `notPtz`) or an agent that
 * does not steer cameras (409 `unsupported`) fail at once. Commands are applied in the order they reach the ship: the last one wins. Who sent it
 * is published on `/ptz/{cameraId}` so every cell watching the camera says who moves it.
 */
export class PtzService {
  private readonly answerTimeoutMs: number;
  private readonly now: () => number;
  /** The last published mover of each camera, so a held control publishes once a second, not per move. */
  private readonly lastMover = new Map<string, { userId: string; at: number }>();

  constructor(
    private readonly fleet: FleetService,
    private readonly streams: LinkStreams,
    private readonly publish: (destination: string, body: string) => void,
    private readonly log: FastifyBaseLogger,
    opts: PtzServiceOptions = {},
  ) {
    this.answerTimeoutMs = opts.answerTimeoutMs ?? 15_000;
    this.now = opts.now ?? Date.now;
  }

  async move(op: PtzOperator, shipId: string, cameraId: string, speeds: { pan: number; tilt: number; zoom: number; timeoutMs?: number | undefined }): Promise<PtzCommandAnswer> {
    const { pan, tilt, zoom } = speeds;
    await this.command(op, shipId, cameraId, { type: 'ptz.move', cameraId, pan, tilt, zoom, timeoutMs: speeds.timeoutMs ?? PTZ_MOVE_TIMEOUT_MS });
    return this.moved(op, shipId, cameraId, 'move');
  }

  async stop(op: PtzOperator, shipId: string, cameraId: string): Promise<PtzCommandAnswer> {
    await this.command(op, shipId, cameraId, { type: 'ptz.stop', cameraId });
    return this.moved(op, shipId, cameraId, 'stop');
  }

  async presets(op: PtzOperator, shipId: string, cameraId: string): Promise<PtzPresetView[]> {
    const answer = await this.command(op, shipId, cameraId, { type: 'ptz.presetList', cameraId });
    return answer.type === 'ptz.presets' ? answer.presets : [];
  }

  async setPreset(op: PtzOperator, shipId: string, cameraId: string, name: string): Promise<PtzPresetView> {
    const answer = await this.command(op, shipId, cameraId, { type: 'ptz.presetSet', cameraId, name });
    if (answer.type !== 'ptz.done' || !answer.preset) throw new ShipAskError('refused', 'the ship did not say which preset it set');
    return answer.preset;
  }

  async gotoPreset(op: PtzOperator, shipId: string, cameraId: string, presetId: string): Promise<PtzCommandAnswer> {
    await this.command(op, shipId, cameraId, { type: 'ptz.presetGo', cameraId, presetId });
    return this.moved(op, shipId, cameraId, 'preset');
  }

  async removePreset(op: PtzOperator, shipId: string, cameraId: string, presetId: string): Promise<void> {
    await this.command(op, shipId, cameraId, { type: 'ptz.presetRemove', cameraId, presetId });
  }

  /** Whether the user may hear who steers this camera (a camera of a ship in their organisations). */
  async canSubscribe(access: Access, cameraId: string): Promise<boolean> {
    try {
      await this.fleet.requireCamera(access, cameraId);
      return true;
    } catch {
      return false;
    }
  }

  /** Checks, sends and awaits the ship's answer; a failure is a ShipAskError (or notPtz) with the ship's reason. */
  private async command(op: PtzOperator, shipId: string, cameraId: string, command: PtzCommand): Promise<AgentMessageOf<'ptz'>> {
    const { camera } = await this.fleet.requireCameraOfShip(op.access, shipId, cameraId);
    if (camera.type !== PTZ_CAMERA_TYPE) throw notPtz(`camera ${camera.name} is not a PTZ camera`);
    return ask(this.streams, {
      shipId,
      kind: 'ptz',
      request: (requestId) => ({ ...command, requestId }) as PtzRequest,
      answer: (msg, reply) => {
        if (msg.type !== 'ptz.failed') return reply.done(msg);
        if (msg.code === 'notFound') return reply.fail('notFound', msg.message);
        if (msg.code === 'notPtz' || msg.code === 'unknownCamera') return reply.error(notPtz(msg.message));
        reply.fail('refused', msg.message);
      },
      timeoutMs: this.answerTimeoutMs,
    });
  }

  /** The camera is now steered by this operator: published at once when the mover or the action changes, else once a second. */
  private moved(op: PtzOperator, shipId: string, cameraId: string, action: PtzAction): PtzCommandAnswer {
    const at = this.now();
    const last = this.lastMover.get(cameraId);
    const event: PtzEvent = { shipId, cameraId, action, by: op.displayName, userId: op.access.userId, at };
    if (action !== 'move' || !last || last.userId !== op.access.userId || at - last.at >= 1_000) {
      this.lastMover.set(cameraId, { userId: op.access.userId, at });
      this.publish(dest.ptz(cameraId), JSON.stringify(event));
      this.log.debug({ cameraId, by: op.access.userId, action }, 'ptz: camera steered');
    }
    return { by: op.displayName, at };
  }
}

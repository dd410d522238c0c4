import type { DefinitionModel } from '@ship-cctv/protocol';
import type { Access } from '../../core/orgs/access.ts';
import type { FleetService } from './fleet-service.ts';
import { chooseTemplate } from './templates.ts';

/** Thrown for a play request that cannot start; `code` is the media socket's error code. */
export class LiveRequestError extends Error {
  constructor(
    readonly code: 'noDefaultTemplate' | 'badRequest' | 'budgetStills' | 'budgetBlocked',
    message: string,
  ) {
    super(message);
  }
}

/** What a viewer may watch of a camera (live or ship-end playback), and at which definition. */
export interface StreamAccess {
  shipId: string;
  cameraId: string;
  orgId: string;
  /** Seconds the organisation expects before the first frame. */
  waitSeconds: number;
  autoShutdown: { enabled: boolean; minutes: number; countdownSeconds: number };
  /** The definition model asked for (or the ship's default). */
  requested: DefinitionModel;
  /** The lowest model of its group: what a struggling link falls back to. */
  lowest: DefinitionModel;
  /** The ship's config has sound on (`audio`): live streams carry the camera's sound. */
  audio: boolean;
}

/**
 * The one check in front of every stream of a camera, live or played back: the camera's ship must
 * lie in the user's organisations (ApiError 404/403 otherwise), and the definition must be one the
 * ship has — without a template id its default, and a ship without a default gets
 * `noDefaultTemplate` (无默认清晰度模板) and nothing starts (spec §5).
 */
export async function resolveStreamAccess(fleet: FleetService, access: Access, cameraId: string, templateId: number | undefined): Promise<StreamAccess> {
  const { ship, org } = await fleet.requireCamera(access, cameraId);
  const config = await fleet.shipConfig(access, ship.orgId, ship.id);
  const choice = chooseTemplate(config, templateId);
  if (!choice.ok) {
    if (choice.error === 'noDefaultTemplate') throw new LiveRequestError('noDefaultTemplate', '无默认清晰度模板 (no default definition template)');
    throw new LiveRequestError('badRequest', `definition template ${templateId} is not configured for this ship`);
  }
  return {
    shipId: ship.id,
    cameraId,
    orgId: org.id,
    waitSeconds: org.waitTimeSeconds,
    autoShutdown: { enabled: org.autoShutdownEnabled, minutes: org.autoShutdownMinutes, countdownSeconds: org.autoShutdownCountdownSeconds },
    requested: choice.requested,
    lowest: choice.lowest,
    audio: config.audio,
  };
}

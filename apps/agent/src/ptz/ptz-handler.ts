import type { AgentPtzMessage, ShorePtzMessage } from '@ship-cctv/protocol';
import type { KindHandler } from '../agent-link/router.ts';
import { type PtzBackend, PtzError } from './ptz-backend.ts';

/**
 * The agent's handler of kind `ptz`: each request goes to its camera's driver and is answered
 * once — `ptz.done`, `ptz.presets`, or `ptz.failed` with the reason (an unknown camera, one that
 * is not PTZ, a preset that is not there, the camera's own error).
 */
export class PtzHandler implements KindHandler<'ptz'> {
  constructor(
    private readonly drivers: ReadonlyMap<string, PtzBackend>,
    private readonly knownCamera: (cameraId: string) => boolean,
    private readonly send: (msg: AgentPtzMessage) => void,
  ) {}

  message(msg: ShorePtzMessage): void {
    void this.answer(msg).then(this.send, (err: unknown) =>
      this.send({
        type: 'ptz.failed',
        requestId: msg.requestId,
        ...(err instanceof PtzError ? { code: err.code } : { code: 'failed' as const }),
        message: err instanceof Error ? err.message : String(err),
      }),
    );
  }

  private async answer(msg: ShorePtzMessage): Promise<AgentPtzMessage> {
    const driver = this.drivers.get(msg.cameraId);
    if (!driver) {
      if (!this.knownCamera(msg.cameraId)) throw new PtzError('unknownCamera', `unknown camera ${msg.cameraId}`);
      throw new PtzError('notPtz', `camera ${msg.cameraId} is not a PTZ camera`);
    }
    const requestId = msg.requestId;
    switch (msg.type) {
      case 'ptz.move':
        await driver.move(msg.pan, msg.tilt, msg.zoom, msg.timeoutMs);
        return { type: 'ptz.done', requestId };
      case 'ptz.stop':
        await driver.stop();
        return { type: 'ptz.done', requestId };
      case 'ptz.presetList':
        return { type: 'ptz.presets', requestId, presets: await driver.presets() };
      case 'ptz.presetSet':
        return { type: 'ptz.done', requestId, preset: await driver.setPreset(msg.name, msg.presetId) };
      case 'ptz.presetGo':
        await driver.gotoPreset(msg.presetId);
        return { type: 'ptz.done', requestId };
      case 'ptz.presetRemove':
        await driver.removePreset(msg.presetId);
        return { type: 'ptz.done', requestId };
    }
  }
}

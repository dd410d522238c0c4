import onvif from 'onvif/promises';
import type { PtzPreset } from '@ship-cctv/protocol';
import type { OnvifSettings } from '../cameras.ts';
import { type PtzBackend, PtzError } from './ptz-backend.ts';

/** ONVIF requests time out after this long (a camera on the ship's LAN answers in milliseconds). */
const REQUEST_TIMEOUT_MS = 10_000;

/** What the `onvif` client (agsh/onvif 0.8, `onvif/promises`) gives us: its promisified camera. */
type OnvifCam = InstanceType<typeof onvif.Cam> & { profiles?: { $?: { token?: unknown }; PTZConfiguration?: unknown }[]; presets?: Record<string, { name?: unknown }> };

/** XML text content: the client puts names into its SOAP bodies as they are. */
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

function faultOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The SOAP fault's subcodes (ter:NoToken …) in a response, which the client's error leaves out. */
function subcodesOf(xml: string | undefined): string[] {
  return [...(xml ?? '').matchAll(/<(?:\w+:)?Subcode>\s*<(?:\w+:)?Value>([^<]+)</g)].map((m) => m[1] ?? '');
}

/** A refusal of the camera as the link says it: an unknown preset token is `notFound` (ONVIF ter:NoToken). */
function ptzError(what: string, err: unknown, lastResponse: string | undefined): PtzError {
  const subcodes = subcodesOf(lastResponse);
  const notFound = subcodes.some((c) => /NoToken$/.test(c));
  return new PtzError(notFound ? 'notFound' : 'failed', `${what}: ${faultOf(err)}${subcodes.length ? ` (${subcodes.join(', ')})` : ''}`);
}

/**
 * A real PTZ camera over ONVIF PTZ (Profile S), with the `onvif` npm client (agsh/onvif, 0.8.3:
 * maintained, promise API, WS-Security UsernameToken digests, one dependency). ContinuousMove
 * carries an ONVIF Timeout so the camera stops by itself when the agent's stop is late; presets are
 * the camera's own (GetPresets, SetPreset, GotoPreset, RemovePreset). Connects on first use, and
 * again after a failure.
 */
export class OnvifPtz implements PtzBackend {
  private cam: Promise<{ cam: OnvifCam; profileToken: string }> | undefined;
  /** The camera's last SOAP response (for a fault's subcode). */
  private lastResponse: string | undefined;

  constructor(private readonly settings: OnvifSettings) {}

  async move(pan: number, tilt: number, zoom: number, timeoutMs: number): Promise<void> {
    await this.call('ContinuousMove', (cam, profileToken) => cam.continuousMove({ profileToken, x: pan, y: tilt, zoom, timeout: timeoutMs }));
  }

  async stop(): Promise<void> {
    // The typings only know stop(callback) once promisified; the client takes (options, callback).
    await this.call('Stop', (cam, profileToken) => (cam.stop as (options: { profileToken: string; panTilt: boolean; zoom: boolean }) => Promise<unknown>)({ profileToken, panTilt: true, zoom: true }));
  }

  async presets(): Promise<PtzPreset[]> {
    return this.call('GetPresets', async (cam, profileToken) => {
      // As for stop: the typings only know getPresets(callback) once promisified.
      await (cam.getPresets as (options: { profileToken: string }) => Promise<unknown>)({ profileToken });
      return Object.entries(cam.presets ?? {}).map(([token, p]) => ({ presetId: token, name: String(p.name ?? token) }));
    });
  }

  async setPreset(name: string, presetId?: string): Promise<PtzPreset> {
    return this.call('SetPreset', async (cam, profileToken) => {
      const data: unknown = await cam.setPreset({ profileToken, presetName: xmlText(name), ...(presetId ? { presetToken: xmlText(presetId) } : {}) });
      const token = presetTokenOf(data) ?? presetId;
      if (!token) throw new Error('the camera did not say the preset token');
      return { presetId: token, name };
    });
  }

  async gotoPreset(presetId: string): Promise<void> {
    await this.call('GotoPreset', (cam, profileToken) => cam.gotoPreset({ profileToken, preset: xmlText(presetId) }));
  }

  async removePreset(presetId: string): Promise<void> {
    await this.call('RemovePreset', (cam, profileToken) => cam.removePreset({ profileToken, presetToken: xmlText(presetId) }));
  }

  close(): void {
    this.cam = undefined;
  }

  private async call<T>(what: string, run: (cam: OnvifCam, profileToken: string) => Promise<T>): Promise<T> {
    let connected;
    try {
      connected = await this.connected();
    } catch (err) {
      this.cam = undefined;
      throw new PtzError('failed', `the camera's ONVIF service at ${this.settings.hostname} did not answer: ${faultOf(err)}`);
    }
    try {
      this.lastResponse = undefined;
      return await run(connected.cam, connected.profileToken);
    } catch (err) {
      // A fault is the camera's answer; anything else (no answer) connects again next time.
      if (!/SOAP Fault/i.test(faultOf(err))) this.cam = undefined;
      throw ptzError(what, err, this.lastResponse);
    }
  }

  /** The camera, connected (device, capabilities, media profiles), and the profile to steer. */
  private connected(): Promise<{ cam: OnvifCam; profileToken: string }> {
    this.cam ??= (async () => {
      const s = this.settings;
      const cam = new onvif.Cam({
        hostname: s.hostname,
        port: s.port ?? 80,
        ...(s.username !== undefined ? { username: s.username } : {}),
        ...(s.password !== undefined ? { password: s.password } : {}),
        timeout: REQUEST_TIMEOUT_MS,
        // The configured address, not the one the camera reports for its services (NAT, port forwards).
        preserveAddress: true,
      }) as OnvifCam;
      cam.on('rawResponse', (xml: string) => (this.lastResponse = xml));
      await cam.connect();
      const profileToken = s.profileToken ?? ptzProfileOf(cam.profiles ?? []);
      if (!profileToken) throw new Error('the camera has no media profile with a PTZ configuration');
      return { cam, profileToken };
    })();
    return this.cam;
  }
}

function ptzProfileOf(profiles: readonly { $?: { token?: unknown }; PTZConfiguration?: unknown }[]): string | undefined {
  const token = profiles.find((p) => p.PTZConfiguration !== undefined)?.$?.token;
  return token === undefined ? undefined : String(token);
}

/** PresetToken of a SetPresetResponse as the client parsed it (xml2js: arrays of objects). */
function presetTokenOf(data: unknown): string | undefined {
  const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);
  const body = first(data) as Record<string, unknown> | undefined;
  const response = first(body?.setPresetResponse) as Record<string, unknown> | undefined;
  const token = first(response?.presetToken);
  return token === undefined || token === null ? undefined : String(token);
}

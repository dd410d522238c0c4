/**
 * A small stateful ONVIF camera (device, media and PTZ services over SOAP 1.2 on node:http) for
 * the agent's ONVIF PTZ tests. No ONVIF PTZ simulator exists in npm or Debian. It answers what
 * a client asks at connect (GetSystemDateAndTime, GetServices — refused, as older cameras do, so
 * the client falls back to GetCapabilities — GetProfiles, GetVideoSources) and the PTZ calls, and
 * it checks what a real camera would: the service each operation is posted to, WS-Security
 * UsernameToken digests (SHA-1 of nonce + created + password), the profile token, velocities in
 * the generic space (−1…1), the ContinuousMove timeout as an xs:duration, preset tokens. A request
 * it refuses is answered with a SOAP fault, as a camera would, and kept in `refused`.
 */
import { createHash } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';

export const PTZ_PROFILE = 'profile_ptz';
const OTHER_PROFILE = 'profile_sub';

export interface FakeOnvifOptions {
  username: string;
  password: string;
}

export interface SeenRequest {
  operation: string;
  path: string;
  body: string;
}

export interface Move {
  x: number;
  y: number;
  zoom: number;
  timeout: string | undefined;
}

const SERVICE_OF: Record<string, string> = {
  GetSystemDateAndTime: 'device',
  GetServices: 'device',
  GetCapabilities: 'device',
  GetDeviceInformation: 'device',
  GetProfiles: 'media',
  GetVideoSources: 'media',
  ContinuousMove: 'ptz',
  Stop: 'ptz',
  GetPresets: 'ptz',
  SetPreset: 'ptz',
  GotoPreset: 'ptz',
  RemovePreset: 'ptz',
};
const PATHS = { device: '/onvif/device_service', media: '/onvif/media_service', ptz: '/onvif/ptz_service' } as const;

const tag = (body: string, name: string) => new RegExp(`<(?:\\w+:)?${name}\\b[^>]*>([^<]*)</(?:\\w+:)?${name}>`).exec(body)?.[1];
const attrs = (body: string, name: string) => {
  const m = new RegExp(`<(?:\\w+:)?${name}\\b([^>]*)/?>`).exec(body);
  if (!m) return undefined;
  return Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
};
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function envelope(body: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:tt="http://www.onvif.org/ver10/schema" ' +
    'xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" ' +
    'xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:ter="http://www.onvif.org/ver10/error">' +
    `<env:Body>${body}</env:Body></env:Envelope>`
  );
}

function fault(subcode: string, reason: string): string {
  return envelope(
    `<env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>${subcode}</env:Value></env:Subcode></env:Code>` +
      `<env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason></env:Fault>`,
  );
}

class Refusal extends Error {
  constructor(
    readonly subcode: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export class FakeOnvifCamera {
  readonly seen: SeenRequest[] = [];
  readonly refused: { operation: string; reason: string }[] = [];
  readonly moves: Move[] = [];
  stops = 0;
  readonly presets = new Map<string, string>();
  private nextPreset = 1;
  private server: Server | undefined;
  port = 0;

  constructor(private readonly opts: FakeOnvifOptions) {}

  async listen(): Promise<number> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  operations(): string[] {
    return this.seen.map((r) => r.operation);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const operation = /<s:Body[^>]*>\s*<(?:\w+:)?(\w+)/.exec(body)?.[1] ?? '?';
    this.seen.push({ operation, path: req.url ?? '', body });
    let answer: string;
    let status = 200;
    try {
      if (!req.headers['content-type']?.startsWith('application/soap+xml')) throw new Refusal('ter:InvalidArgVal', 'not SOAP 1.2');
      const service = SERVICE_OF[operation];
      if (!service) throw new Refusal('ter:ActionNotSupported', `${operation} is not supported`);
      if (req.url !== PATHS[service as keyof typeof PATHS]) throw new Refusal('ter:ActionNotSupported', `${operation} was posted to ${req.url}, not the ${service} service`);
      if (operation !== 'GetSystemDateAndTime') this.authenticate(body);
      answer = envelope(this.answer(operation, body));
    } catch (err) {
      const refusal = err instanceof Refusal ? err : new Refusal('ter:Action', String(err));
      this.refused.push({ operation, reason: refusal.message });
      status = refusal.status;
      answer = fault(refusal.subcode, refusal.message);
    }
    res.writeHead(status, { 'Content-Type': 'application/soap+xml; charset=utf-8' });
    res.end(answer);
  }

  /** WS-Security UsernameToken with PasswordDigest = Base64(SHA-1(nonce + created + password)). */
  private authenticate(body: string): void {
    const username = tag(body, 'Username');
    const digest = tag(body, 'Password');
    const nonce = tag(body, 'Nonce');
    const created = tag(body, 'Created');
    if (!username || !digest || !nonce || !created) throw new Refusal('ter:NotAuthorized', 'Sender not authorized: no UsernameToken', 400);
    const expected = createHash('sha1')
      .update(Buffer.concat([Buffer.from(nonce, 'base64'), Buffer.from(created, 'ascii'), Buffer.from(this.opts.password, 'ascii')]))
      .digest('base64');
    if (username !== this.opts.username || digest !== expected) throw new Refusal('ter:NotAuthorized', 'Sender not authorized', 400);
  }

  private profile(body: string): void {
    const token = tag(body, 'ProfileToken');
    if (token === OTHER_PROFILE) throw new Refusal('ter:NoPTZProfile', `profile ${token} has no PTZ configuration`);
    if (token !== PTZ_PROFILE) throw new Refusal('ter:NoProfile', `no profile ${token ?? '(none)'}`);
  }

  private preset(body: string): string {
    const token = tag(body, 'PresetToken');
    if (!token || !this.presets.has(token)) throw new Refusal('ter:NoToken', `no preset ${token ?? '(none)'}`);
    return token;
  }

  private answer(operation: string, body: string): string {
    const url = (path: string) => `http://127.0.0.1:${this.port}${path}`;
    switch (operation) {
      case 'GetSystemDateAndTime': {
        const d = new Date();
        return (
          '<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings>' +
          `<tt:UTCDateTime><tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute><tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time>` +
          `<tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month><tt:Day>${d.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime>` +
          '</tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>'
        );
      }
      case 'GetServices':
        throw new Refusal('ter:ActionNotSupported', 'GetServices is not supported');
      case 'GetCapabilities':
        return (
          '<tds:GetCapabilitiesResponse><tds:Capabilities>' +
          `<tt:Device><tt:XAddr>${url(PATHS.device)}</tt:XAddr></tt:Device>` +
          `<tt:Media><tt:XAddr>${url(PATHS.media)}</tt:XAddr></tt:Media>` +
          `<tt:PTZ><tt:XAddr>${url(PATHS.ptz)}</tt:XAddr></tt:PTZ>` +
          '</tds:Capabilities></tds:GetCapabilitiesResponse>'
        );
      case 'GetDeviceInformation':
        return '<tds:GetDeviceInformationResponse><tds:Manufacturer>Fake</tds:Manufacturer><tds:Model>PTZ-1</tds:Model><tds:FirmwareVersion>1.0</tds:FirmwareVersion><tds:SerialNumber>1</tds:SerialNumber><tds:HardwareId>1</tds:HardwareId></tds:GetDeviceInformationResponse>';
      case 'GetProfiles': {
        const profile = (token: string, ptz: boolean) =>
          `<trt:Profiles token="${token}" fixed="true"><tt:Name>${token}</tt:Name>` +
          '<tt:VideoSourceConfiguration token="vsc"><tt:Name>vsc</tt:Name><tt:UseCount>2</tt:UseCount><tt:SourceToken>vs1</tt:SourceToken><tt:Bounds x="0" y="0" width="1920" height="1080"/></tt:VideoSourceConfiguration>' +
          `<tt:VideoEncoderConfiguration token="vec_${token}"><tt:Name>vec</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>H264</tt:Encoding><tt:Resolution><tt:Width>1920</tt:Width><tt:Height>1080</tt:Height></tt:Resolution><tt:Quality>5</tt:Quality></tt:VideoEncoderConfiguration>` +
          (ptz ? '<tt:PTZConfiguration token="ptzc"><tt:Name>ptz</tt:Name><tt:UseCount>1</tt:UseCount><tt:NodeToken>node0</tt:NodeToken><tt:DefaultPTZTimeout>PT5S</tt:DefaultPTZTimeout></tt:PTZConfiguration>' : '') +
          '</trt:Profiles>';
        // The profile without PTZ comes first: the client must pick the PTZ one.
        return `<trt:GetProfilesResponse>${profile(OTHER_PROFILE, false)}${profile(PTZ_PROFILE, true)}</trt:GetProfilesResponse>`;
      }
      case 'GetVideoSources':
        return '<trt:GetVideoSourcesResponse><trt:VideoSources token="vs1"><tt:Framerate>25</tt:Framerate><tt:Resolution><tt:Width>1920</tt:Width><tt:Height>1080</tt:Height></tt:Resolution></trt:VideoSources></trt:GetVideoSourcesResponse>';
      case 'ContinuousMove': {
        this.profile(body);
        const pt = attrs(body, 'PanTilt');
        const zoom = attrs(body, 'Zoom');
        const move = { x: Number(pt?.x), y: Number(pt?.y), zoom: Number(zoom?.x ?? 0), timeout: tag(body, 'Timeout') };
        if (![move.x, move.y, move.zoom].every((v) => Number.isFinite(v) && v >= -1 && v <= 1)) throw new Refusal('ter:InvalidVelocity', 'velocity outside the generic space');
        if (move.timeout !== undefined && !/^PT\d+(\.\d+)?S$/.test(move.timeout)) throw new Refusal('ter:InvalidArgVal', `timeout ${move.timeout} is not a duration`);
        this.moves.push(move);
        return '<tptz:ContinuousMoveResponse/>';
      }
      case 'Stop':
        this.profile(body);
        if (tag(body, 'PanTilt') !== 'true' || tag(body, 'Zoom') !== 'true') throw new Refusal('ter:InvalidArgVal', 'stop names neither pan/tilt nor zoom');
        this.stops++;
        return '<tptz:StopResponse/>';
      case 'GetPresets':
        this.profile(body);
        return `<tptz:GetPresetsResponse>${[...this.presets].map(([token, name]) => `<tptz:Preset token="${token}"><tt:Name>${escape(name)}</tt:Name></tptz:Preset>`).join('')}</tptz:GetPresetsResponse>`;
      case 'SetPreset': {
        this.profile(body);
        const name = tag(body, 'PresetName');
        if (!name) throw new Refusal('ter:InvalidArgVal', 'no preset name');
        const existing = tag(body, 'PresetToken');
        if (existing !== undefined && !this.presets.has(existing)) throw new Refusal('ter:NoToken', `no preset ${existing}`);
        const token = existing ?? `preset_${this.nextPreset++}`;
        this.presets.set(token, unescape(name));
        return `<tptz:SetPresetResponse><tptz:PresetToken>${token}</tptz:PresetToken></tptz:SetPresetResponse>`;
      }
      case 'GotoPreset':
        this.profile(body);
        this.preset(body);
        return '<tptz:GotoPresetResponse/>';
      case 'RemovePreset':
        this.profile(body);
        this.presets.delete(this.preset(body));
        return '<tptz:RemovePresetResponse/>';
      default:
        throw new Refusal('ter:ActionNotSupported', `${operation} is not supported`);
    }
  }
}

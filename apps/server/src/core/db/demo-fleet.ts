import type { SourceType } from '@ship-cctv/protocol';

/**
 * The demo fleet seeded on first start: two top-level organisations (one with id njzsz), a
 * sub-organisation, seven ships, cameras of every source type, one blocked channel, one channel
 * with several cameras, and one ship without a default definition template.
 */
export interface DemoCamera {
  name: string;
  type: string;
  sourceType: SourceType;
}
export interface DemoChannel {
  name: string;
  block?: 1;
  cameras: DemoCamera[];
}
export interface DemoShip {
  id: string;
  name: string;
  enName: string;
  orgId: string;
  timeZone: string;
  xplusId?: string;
  /** false: the ship has no default definition template. */
  hasDefault: boolean;
  talk: boolean;
  audio: boolean;
  channels: DemoChannel[];
}

export const DEMO_PASSWORD = 'demo-pass';

export const demoOrganizations = [
  { id: 'blueocean', name: '蓝海航运', displayName: 'Blue Ocean Shipping', parentId: null, waitTimeSeconds: 8 },
  { id: 'blueocean-tankers', name: '蓝海油运', displayName: 'Blue Ocean Tankers', parentId: 'blueocean', waitTimeSeconds: 12 },
  { id: 'njzsz', name: '南京智水舟', displayName: 'NJZSZ Shipping', parentId: null, waitTimeSeconds: 10 },
] as const;

/** Membership roles: a manager also changes the organisation's settings (watching limit, link policies, budgets). */
export type DemoRole = 'manager' | 'operator';

export const demoUsers: readonly { id: string; username: string; displayName: string; orgIds: readonly string[]; role: DemoRole }[] = [
  { id: 'u-demo', username: 'demo', displayName: 'Demo Operator', orgIds: ['blueocean', 'njzsz'], role: 'manager' },
  { id: 'u-njzsz', username: 'njzsz', displayName: 'NJZSZ Operator', orgIds: ['njzsz'], role: 'manager' },
  /** A second operator of Blue Ocean: two people on one ship (talkback occupied, PTZ who moves it). */
  { id: 'u-duty', username: 'duty', displayName: 'Duty Officer', orgIds: ['blueocean'], role: 'manager' },
  /** An operator of Blue Ocean who is not a manager: watches and steers, changes no settings. */
  { id: 'u-viewer', username: 'viewer', displayName: 'Watch Keeper', orgIds: ['blueocean'], role: 'operator' },
];

/** Definition tiers; ids are fixed so the spec's default config id (6) is the standard tier. */
export const demoDefinitionTiers = [
  { offset: 0, displayName: '流畅 320×180', displayNameEn: 'Smooth 320×180', width: 320, height: 180, frameRate: 5, bitrateKbps: 150 },
  { offset: 1, displayName: '标清 640×360', displayNameEn: 'Standard 640×360', width: 640, height: 360, frameRate: 10, bitrateKbps: 400 },
  { offset: 2, displayName: '高清 1280×720', displayNameEn: 'HD 1280×720', width: 1280, height: 720, frameRate: 15, bitrateKbps: 1200 },
] as const;

/**
 * The satellite tier, for FleetBroadband and Iridium (the link policies' `satellite` level): 320×180
 * at 3 frames a second at 16 kbit/s, in H.264 and in AV1 (shore sends the AV1 one in H.264 to
 * viewers that cannot decode AV1). Their ids follow the tiers above per group (`satelliteModelIds`
 * in seed.ts): databases seeded before the tier get it too.
 *
 * Why 16 and not the tier's ceiling of 32: everything a ship sends crosses one TCP connection, and
 * on FleetBroadband (1 % loss, 700 ms round trip) each loss halves its window; a few losses within
 * seconds leave it carrying 50–100 kbit/s for several seconds more. Six cameras at 32 kbit/s (about
 * 190 kbit/s on the link) or at 24 (about 150) then fell behind by seconds after most losses; at 16
 * (about 100) they keep up except after clusters of losses. AV1 at 16 kbit/s still looks better than
 * H.264 at 64 with the ordinary settings (the agent's README has both benchmarks).
 */
export const demoSatelliteTiers = [
  { displayName: '卫星 320×180 H.264', displayNameEn: 'Satellite 320×180 H.264', width: 320, height: 180, frameRate: 3, bitrateKbps: 16, codec: 'h264' },
  { displayName: '卫星 320×180 AV1', displayNameEn: 'Satellite 320×180 AV1', width: 320, height: 180, frameRate: 3, bitrateKbps: 16, codec: 'av1' },
] as const;

const cam = (name: string, sourceType: SourceType, type = 'ipc'): DemoCamera => ({ name, type, sourceType });
const ch = (name: string, sourceType: SourceType, type = 'ipc'): DemoChannel => ({
  name,
  cameras: [cam(name, sourceType, type)],
});

export const demoShips: DemoShip[] = [
  {
    id: 'S1001',
    name: '蓝海之星',
    enName: 'BLUE OCEAN STAR',
    orgId: 'blueocean',
    timeZone: 'Asia/Singapore',
    hasDefault: true,
    talk: true,
    audio: true,
    channels: [
      ch('Bridge', '8700', 'ptz'),
      ch('Engine Room', 'hkszy'),
      ch('Bow', 'chuanhui'),
      ch('Stern', 'ditai'),
      { name: 'Crew Mess', block: 1, cameras: [cam('Crew Mess', '8700')] },
    ],
  },
  {
    id: 'S1002',
    name: '蓝海明珠',
    enName: 'BLUE PEARL',
    orgId: 'blueocean',
    timeZone: 'Asia/Shanghai',
    xplusId: 'XP-2002',
    hasDefault: true,
    talk: false,
    audio: true,
    channels: [
      ch('Bridge', 'xplus', 'ptz'),
      { name: 'Main Deck', cameras: [cam('Main Deck Port', 'xplus-remote'), cam('Main Deck Starboard', 'xplus-remote')] },
      ch('Cargo Hold', 'xplus'),
    ],
  },
  {
    id: 'S1003',
    name: '远航号',
    enName: 'FAR VOYAGER',
    orgId: 'blueocean',
    timeZone: 'Europe/Amsterdam',
    hasDefault: true,
    talk: false,
    audio: false,
    channels: [ch('Bridge', 'haiweitongszy'), ch('Gangway', 'haiweitongszy')],
  },
  {
    id: 'S2001',
    name: '海之韵',
    enName: 'SEA RHYTHM',
    orgId: 'blueocean-tankers',
    timeZone: 'Asia/Dubai',
    hasDefault: true,
    talk: true,
    audio: false,
    channels: [
      ch('Bridge', '8700', 'ptz'),
      ch('Engine Control Room', 'hkszy'),
      ch('Pump Room', 'hkszy', 'thermal'),
      ch('Manifold', 'chuanhui'),
      ch('Forecastle', 'ditai'),
      ch('Accommodation', 'haiweitongszy'),
    ],
  },
  {
    id: 'S2002',
    name: '长风号',
    enName: 'LONG WIND',
    orgId: 'blueocean-tankers',
    timeZone: 'Asia/Kolkata',
    hasDefault: false,
    talk: false,
    audio: false,
    channels: [
      ch('Bridge', '8700'),
      ch('Engine Room', '8700'),
      ch('Steering Gear', 'hkszy'),
      ch('Main Deck Fwd', 'chuanhui'),
      ch('Main Deck Aft', 'chuanhui'),
      ch('Lifeboat', 'ditai'),
      ch('Gangway', 'haiweitongszy'),
      ch('Funnel', 'ditai'),
    ],
  },
  {
    id: 'S3001',
    name: '宁江一号',
    enName: 'NING JIANG 1',
    orgId: 'njzsz',
    timeZone: 'Asia/Shanghai',
    xplusId: 'XP-3001',
    hasDefault: true,
    talk: true,
    audio: true,
    channels: [ch('Bridge', 'xplus', 'ptz'), ch('Engine Room', 'xplus'), ch('Cargo Deck', 'xplus-remote')],
  },
  {
    id: 'S3002',
    name: '宁江二号',
    enName: 'NING JIANG 2',
    orgId: 'njzsz',
    timeZone: 'Asia/Shanghai',
    hasDefault: true,
    talk: false,
    audio: false,
    channels: [ch('Bridge', 'chuanhui'), ch('Engine Room', 'hkszy')],
  },
];

const LANDSEA: ReadonlySet<SourceType> = new Set<SourceType>(['xplus', 'xplus-remote']);

/**
 * The `other` field in the forms the spec parses: landsea sources carry
 * `cctvInstanceId=<instance>|iosChannelId=<channel>`, the rest `cameraId=<camera>`.
 */
export function demoCameraOther(ship: DemoShip, cameraId: string, sourceType: SourceType, index: number): string {
  if (LANDSEA.has(sourceType)) {
    return `cctvInstanceId=${ship.xplusId ?? ship.id}|iosChannelId=${index + 1}`;
  }
  return `cameraId=${cameraId}`;
}

/**
 * Ships whose every camera has an active continuous shore recording configuration in the demo:
 * what operators watch of these ships is recorded on shore (see apps/server/src/recorder).
 */
export const demoRecordedShipIds = ['S1001', 'S3001'] as const;

/** The demo's record configuration id of a camera. */
export const demoRecordConfigId = (cameraId: string): string => `rc-${cameraId}`;

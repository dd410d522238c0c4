import { Type, type Static } from 'typebox';

export const OrgIdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const ShipIdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ThirdEntry = Type.Object({ type: Type.String(), thirdId: Type.String() });
export const ShipJsonObject = Type.Object({
  version: Type.String(),
  third: Type.Array(ThirdEntry),
});
export type ShipJsonObject = Static<typeof ShipJsonObject>;

export const Ship = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'Chinese name' }),
  enName: Type.String(),
  orgId: Type.String(),
  orgName: Type.String(),
  jsonObject: ShipJsonObject,
  /** IANA zone of the ship's clock, for showing playback times in the ship's zone. */
  timeZone: Type.String(),
});
export type Ship = Static<typeof Ship>;

/** Spec §3: a ship is shown as its English name plus its name, when present. */
export function shipDisplayName(ship: Pick<Ship, 'enName' | 'name'>): string {
  return [ship.enName, ship.name].filter((part) => part && part.trim()).join(' ');
}

export interface OrgShipTreeNode {
  organizationid: string;
  organizationname: string;
  displayName: string;
  parentId: string | null;
  orgShipTreeNodes: OrgShipTreeNode[];
  shipList: Ship[];
}
/*
 * The tree is recursive; nested levels are described loosely so the serializer and the OpenAPI
 * document stay simple, while the TypeScript type stays exact.
 */
const OrgShipTreeNodeSchema = Type.Object({
  organizationid: Type.String(),
  organizationname: Type.String(),
  displayName: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  orgShipTreeNodes: Type.Array(Type.Unknown()),
  shipList: Type.Array(Ship),
});
export const OrgShipTreeNode = Type.Unsafe<OrgShipTreeNode>(OrgShipTreeNodeSchema);

export const OrgShipTree = Type.Object({
  orgShipTreeNodes: Type.Array(OrgShipTreeNode),
});
export type OrgShipTree = Static<typeof OrgShipTree>;

export const Camera = Type.Object({
  id: Type.String(),
  type: Type.String({ description: 'Camera kind, e.g. ipc, ptz, thermal' }),
  sourceType: Type.String({ description: 'One of 8700, hkszy, haiweitongszy, chuanhui, xplus, xplus-remote, ditai' }),
  other: Type.String({ description: 'Source parameters: cameraId=… or cctvInstanceId=…|iosChannelId=…' }),
  name: Type.String(),
});
export type Camera = Static<typeof Camera>;

export const Channel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  shipId: Type.String(),
  block: Type.Integer({ description: '1: hidden from operators' }),
  sort: Type.Integer(),
  cameras: Type.Array(Camera),
});
export type Channel = Static<typeof Channel>;

export const DefinitionModel = Type.Object({
  id: Type.Integer(),
  /** The name as the spec's displayName (Chinese); `displayNameEn` the English one, when known. */
  displayName: Type.String(),
  displayNameEn: Type.Optional(Type.String()),
  width: Type.Integer(),
  height: Type.Integer(),
  frameRate: Type.Integer(),
  bitrateKbps: Type.Integer(),
  codec: Type.String(),
});
export type DefinitionModel = Static<typeof DefinitionModel>;

export const DefinitionGroup = Type.Object({
  id: Type.Integer(),
  displayName: Type.String(),
  displayNameEn: Type.Optional(Type.String()),
  defaultModelId: Type.Union([Type.Integer(), Type.Null()]),
  models: Type.Array(DefinitionModel),
});
export type DefinitionGroup = Static<typeof DefinitionGroup>;

export const ShipGroupQuery = Type.Object({
  orgId: Type.String({ minLength: 1, maxLength: 64 }),
  shipId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ShipConfig = Type.Object({
  groupAliasResDTOS: Type.Array(DefinitionGroup),
  /** Id of the ship's default group, or null when the ship has no default definition template. */
  defaultGroupId: Type.Union([Type.Integer(), Type.Null()]),
  talk: Type.Boolean(),
  audio: Type.Boolean(),
});
export type ShipConfig = Static<typeof ShipConfig>;

export const ShipGroupList = Type.Object({ data: ShipConfig });

export const ChannelTag = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  orgId: Type.String(),
  channelIds: Type.Array(Type.String()),
});
export type ChannelTag = Static<typeof ChannelTag>;

export const ChannelTagQuery = Type.Object({
  orgId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

export const ShipsAndChannels = Type.Object({
  orgId: Type.String(),
  shipCount: Type.Integer(),
  channelCount: Type.Integer(),
  blockedChannelCount: Type.Integer(),
  cameraCount: Type.Integer(),
});
export type ShipsAndChannels = Static<typeof ShipsAndChannels>;

export const OrgIdQuery = Type.Object({ orgID: Type.String({ minLength: 1, maxLength: 64 }) });

export const PlaybackAutoShutdown = Type.Object({
  orgId: Type.String(),
  enabled: Type.Boolean(),
  /** Continuous watching allowed before the video pauses (minutes). */
  minutes: Type.Integer(),
  /** Countdown shown before the pause (seconds). */
  countdownSeconds: Type.Integer(),
});
export type PlaybackAutoShutdown = Static<typeof PlaybackAutoShutdown>;

/** An administrator's change of an organisation's continuous-watching limit (not in the spec). */
export const PlaybackAutoShutdownUpdate = Type.Object({
  orgId: Type.String({ minLength: 1, maxLength: 64 }),
  enabled: Type.Boolean(),
  /** 1 minute to a day. */
  minutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  /** 0 to 5 minutes, and less than the limit itself. */
  countdownSeconds: Type.Integer({ minimum: 0, maximum: 300 }),
});
export type PlaybackAutoShutdownUpdate = Static<typeof PlaybackAutoShutdownUpdate>;

export const WaitTimeQuery = Type.Object({ orgName: Type.String({ minLength: 1, maxLength: 128 }) });
export const WaitTime = Type.Object({
  orgId: Type.String(),
  /** Seconds a viewer should expect before a ship's first frame (shown as a countdown). */
  waitTime: Type.Integer(),
});
export type WaitTime = Static<typeof WaitTime>;

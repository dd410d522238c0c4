import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import type { ShipJsonObject } from '@ship-cctv/protocol';
import { organizations } from './orgs.ts';

// Ships, channels, cameras and their definitions (the fleet module).

export const ships = pgTable(
  'ships',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    enName: text('en_name').notNull().default(''),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    jsonObject: jsonb('json_object').$type<ShipJsonObject>().notNull(),
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    /** Sort order within the organisation. */
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('ships_org_idx').on(t.orgId)],
);

export const channels = pgTable(
  'channels',
  {
    id: text('id').primaryKey(),
    shipId: text('ship_id')
      .notNull()
      .references(() => ships.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 1: hidden from operators. */
    block: integer('block').notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('channels_ship_idx').on(t.shipId)],
);

export const cameras = pgTable(
  'cameras',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().default('ipc'),
    sourceType: text('source_type').notNull(),
    /** Source parameters as the spec parses them (cameraId=… or cctvInstanceId=…|iosChannelId=…). */
    other: text('other').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('cameras_channel_idx').on(t.channelId)],
);

/** A definition group holds definition models (templates) a stream can be encoded at. */
export const definitionGroups = pgTable('definition_groups', {
  id: serial('id').primaryKey(),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** The name in Chinese (the spec's displayName); the English one beside it, when known. */
  displayName: text('display_name').notNull(),
  displayNameEn: text('display_name_en'),
  defaultModelId: integer('default_model_id'),
});

export const definitionModels = pgTable(
  'definition_models',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => definitionGroups.id, { onDelete: 'cascade' }),
    /** The name in Chinese (the spec's displayName); the English one beside it, when known. */
    displayName: text('display_name').notNull(),
    displayNameEn: text('display_name_en'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    frameRate: integer('frame_rate').notNull(),
    bitrateKbps: integer('bitrate_kbps').notNull(),
    codec: text('codec').notNull().default('h264'),
  },
  (t) => [index('definition_models_group_idx').on(t.groupId)],
);

/** Per-ship configuration: which definition groups apply, the default one, talkback and audio. */
export const shipConfigs = pgTable('ship_configs', {
  shipId: text('ship_id')
    .primaryKey()
    .references(() => ships.id, { onDelete: 'cascade' }),
  defaultGroupId: integer('default_group_id').references(() => definitionGroups.id, { onDelete: 'set null' }),
  talk: boolean('talk').notNull().default(false),
  audio: boolean('audio').notNull().default(false),
});

export const shipDefinitionGroups = pgTable(
  'ship_definition_groups',
  {
    shipId: text('ship_id')
      .notNull()
      .references(() => ships.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => definitionGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.shipId, t.groupId] })],
);

export const channelTags = pgTable('channel_tags', {
  id: serial('id').primaryKey(),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
});

export const channelTagMembers = pgTable(
  'channel_tag_members',
  {
    tagId: integer('tag_id')
      .notNull()
      .references(() => channelTags.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.channelId] })],
);

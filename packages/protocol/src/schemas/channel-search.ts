import { Type, type Static } from 'typebox';

/** A search over an organisation's channels and cameras by name (the source tree's search). */
export const ChannelSearchQuery = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
});
export type ChannelSearchQuery = Static<typeof ChannelSearchQuery>;

export const ChannelMatch = Type.Object({
  shipId: Type.String(),
  channelId: Type.String(),
  channelName: Type.String(),
  /** Cameras of the channel whose own name matches (a multi-camera channel's sub-items). */
  cameraIds: Type.Array(Type.String()),
});
export type ChannelMatch = Static<typeof ChannelMatch>;

export const ChannelSearchResult = Type.Object({
  orgId: Type.String(),
  name: Type.String(),
  /** Visible (not blocked) channels whose name, or one of whose cameras' names, holds `name`. */
  matches: Type.Array(ChannelMatch),
  /** More channels matched than CHANNEL_SEARCH_LIMIT; the first ones by ship and channel order are given. */
  truncated: Type.Boolean(),
});
export type ChannelSearchResult = Static<typeof ChannelSearchResult>;

export const CHANNEL_SEARCH_LIMIT = 500;

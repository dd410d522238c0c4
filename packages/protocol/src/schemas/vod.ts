import { Type, type Static } from 'typebox';
import { epochMs } from './common.ts';
import { GAP_CAUSES, type RecordedSpan, type RecordingGap, type VodQueryResult } from '../playback.ts';

/**
 * REST schemas of the ship recorder's span query (`GET /cctvv3-server/v3/vod/query/{shipId}/{cameraId}/{start}/{end}`),
 * matching the interfaces of ../playback.ts (the checks at the bottom fail the typecheck if they drift apart).
 */

export const VodQueryParams = Type.Object({
  shipId: Type.String({ minLength: 1, maxLength: 64 }),
  cameraId: Type.String({ minLength: 1, maxLength: 64 }),
  start: epochMs('From, inclusive'),
  end: epochMs('To, exclusive'),
});
export type VodQueryParams = Static<typeof VodQueryParams>;

export const RecordedSpanSchema = Type.Object({
  start: Type.Integer({ description: 'epoch ms, inclusive' }),
  end: Type.Integer({ description: 'epoch ms, exclusive' }),
});

export const RecordingGapSchema = Type.Object({
  start: Type.Integer({ description: 'epoch ms, inclusive' }),
  end: Type.Integer({ description: 'epoch ms, exclusive' }),
  cause: Type.Enum(GAP_CAUSES, { description: 'Why nothing is recorded then (unknown: no fact says)' }),
});

export const VodQueryResultSchema = Type.Object({
  shipId: Type.String(),
  cameraId: Type.String(),
  start: Type.Integer(),
  end: Type.Integer(),
  spans: Type.Array(RecordedSpanSchema, { description: 'Recorded spans inside [start, end), sorted; gaps are times nothing was recorded' }),
  gaps: Type.Array(RecordingGapSchema, { description: "Times of [start, end) up to now the ship holds nothing, with the ship's cause (cameraSilent, diskFull, agentStopped, retention; unknown from an agent that does not say)" }),
  cached: Type.Boolean({ description: 'Answered from the shore cache without asking the ship' }),
});

// Compile-time agreement with the interfaces of ../playback.ts.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T | undefined => undefined;
agree<Same<Static<typeof RecordedSpanSchema>, RecordedSpan>>();
agree<Same<Static<typeof RecordingGapSchema>, RecordingGap>>();
agree<Same<Static<typeof VodQueryResultSchema>, VodQueryResult>>();

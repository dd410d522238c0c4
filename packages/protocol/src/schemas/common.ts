import { Type } from 'typebox';

/**
 * The latest time a JavaScript Date can hold (year 275760). Times past it are no moment at all,
 * and numbers like 1e20 would overflow the database's bigint columns.
 */
export const MAX_EPOCH_MS = 8_640_000_000_000_000;

/** A moment in epoch milliseconds, as every REST time parameter takes it. */
export const epochMs = (description: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_EPOCH_MS, description: `${description} (epoch ms)` });

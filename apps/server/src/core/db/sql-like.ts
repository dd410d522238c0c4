/** A value matched literally inside a LIKE pattern (its %, _ and \ escaped). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

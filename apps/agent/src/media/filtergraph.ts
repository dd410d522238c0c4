/**
 * Building ffmpeg filtergraph text without shell or escaping surprises. A filtergraph is parsed at
 * two levels, each with av_get_token() rules (a backslash escapes one character, '…' quotes a run):
 *
 *   graph level:  `name=ARGS` — ARGS ends at one of  [ ] , ;
 *   option level: ARGS is split into `key=value` pairs at  :
 *
 * `filter()` quotes each value for the option level when it needs it, then the whole ARGS for the
 * graph level when it needs it, so any value (a camera name with quotes or colons, a font path, an
 * expression full of commas) arrives at the filter exactly as given.
 */

/** Quotes `s` for av_get_token(): '…' with each ' written as '\''. */
export function quote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

const OPTION_SPECIAL = /[:'\\=]|^\s|\s$/;
const GRAPH_SPECIAL = /[[\],;'\\]|^\s|\s$/;

export type FilterOptions = Record<string, string | number | undefined>;

/** One filter: `name=k=v:k=v`, escaped for both levels. Undefined options are left out. */
export function filter(name: string, opts: FilterOptions = {}): string {
  const args = Object.entries(opts)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => {
      const value = String(v);
      return `${k}=${OPTION_SPECIAL.test(value) ? quote(value) : value}`;
    })
    .join(':');
  if (args === '') return name;
  return `${name}=${GRAPH_SPECIAL.test(args) ? quote(args) : args}`;
}

/** A linear chain with optional input and output pad labels. */
export function chain(inputs: string[], filters: string[], outputs: string[] = []): string {
  return `${inputs.map((l) => `[${l}]`).join('')}${filters.join(',')}${outputs.map((l) => `[${l}]`).join('')}`;
}

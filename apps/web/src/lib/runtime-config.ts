import { DEFAULT_RUNTIME_CONFIG, PATHS, type RuntimeConfig } from '@ship-cctv/protocol';

export type { RuntimeConfig };

/** What the app runs with when the server's config cannot be read: the same values it would send. */
export { DEFAULT_RUNTIME_CONFIG };

const STRING_FIELDS = ['version', 'apiBase', 'stompPath', 'mediaPath', 'defaultLanguage'] as const;
const INTEGER_FIELDS = ['httpTimeoutMs', 'heartbeatMs'] as const;

/**
 * Checks the shape by hand: the TypeBox schema lives in the protocol package, but its validator
 * would add a sizeable library to the bundle for seven fields.
 */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) throw new Error('runtime config is not an object');
  const v = value as Record<string, unknown>;
  for (const key of STRING_FIELDS) {
    if (typeof v[key] !== 'string') throw new Error(`runtime config: ${key} must be a string`);
  }
  for (const key of INTEGER_FIELDS) {
    if (!Number.isInteger(v[key]) || (v[key] as number) <= 0) throw new Error(`runtime config: ${key} must be a positive integer`);
  }
  const pick = Object.fromEntries([...STRING_FIELDS, ...INTEGER_FIELDS].map((key) => [key, v[key]]));
  return pick as unknown as RuntimeConfig;
}

/**
 * Reads `GET {origin}/monitor/static/config-data.json` (spec §7) once at start. Bounded in time:
 * the first screen waits for it.
 */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = globalThis.fetch, timeoutMs = 10_000): Promise<RuntimeConfig> {
  const res = await fetchImpl(PATHS.runtimeConfig, {
    headers: { accept: 'application/json' },
    cache: 'no-cache',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`runtime config: HTTP ${res.status}`);
  return parseRuntimeConfig(await res.json());
}

import { LocalObjectStore } from './local-object-store.ts';
import { NatsObjectStore } from './nats-object-store.ts';
import type { ObjectStore } from './object-store.ts';

export type StorageKind = 'local' | 'nats';

export interface StorageSettings {
  /** STORAGE: `local` (default: files under the server's folders) or `nats` (JetStream object store). */
  kind: StorageKind;
  /** NATS_URL, for `nats` (default nats://127.0.0.1:4222). */
  natsUrl: string;
  /** NATS_BUCKET, for `nats` (default shipcctv). */
  natsBucket: string;
}

export function readStorageSettings(env: NodeJS.ProcessEnv): StorageSettings {
  const kind = env.STORAGE || 'local';
  if (kind !== 'local' && kind !== 'nats') throw new Error(`STORAGE must be "local" or "nats", got "${kind}"`);
  return { kind, natsUrl: env.NATS_URL || 'nats://127.0.0.1:4222', natsBucket: env.NATS_BUCKET || 'shipcctv' };
}

/** Opens the configured store; `localRoot` is the folder the local backend keeps its files in. */
export async function openObjectStore(settings: StorageSettings, localRoot: string): Promise<ObjectStore> {
  if (settings.kind === 'nats') return NatsObjectStore.open({ url: settings.natsUrl, bucket: settings.natsBucket });
  return new LocalObjectStore(localRoot);
}

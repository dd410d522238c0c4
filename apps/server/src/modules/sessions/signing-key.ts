import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../core/db/client.ts';
import { deleteSetting, readSetting } from './repo.ts';

/** Where the session tokens' signing key comes from. */
export interface SigningKeySource {
  /** JWT_SECRET: the same on every instance that shares the database (at least 32 characters). */
  secret?: string | undefined;
  /** Without a secret: the key lives in DATA_DIR/secrets/jwt-signing.key, readable by the owner only. */
  dataDir?: string | undefined;
}

/** The settings row earlier versions kept the key in (readable in the database's files and WAL). */
const LEGACY_SETTING = 'jwt-signing-key';
export const MIN_SECRET_LENGTH = 32;

/** Refuses a JWT_SECRET too short to be a key; the server checks it before it opens anything. */
export function checkSigningSecret(secret: string | undefined): void {
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) throw new Error(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
}

export function signingKeyFile(dataDir: string): string {
  return join(dataDir, 'secrets', 'jwt-signing.key');
}

/** Reads the key file, or creates it (exclusively, 0600) holding `initial` or a new random key. */
function keyFromFile(path: string, initial: string | undefined): Uint8Array {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${initial ?? randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length < 32) throw new Error(`${path} does not hold a signing key of 32 bytes or more (base64)`);
  return key;
}

/**
 * The key that signs session tokens, kept out of the database. A key an earlier version stored in
 * the database moves to the key file (sessions stay valid) and its row is deleted.
 */
export async function loadSigningKey(db: Db, source: SigningKeySource): Promise<Uint8Array> {
  const legacy = await readSetting(db, LEGACY_SETTING);
  let key: Uint8Array;
  if (source.secret !== undefined) {
    checkSigningSecret(source.secret);
    key = Buffer.from(source.secret, 'utf8');
  } else if (source.dataDir !== undefined) {
    key = keyFromFile(signingKeyFile(source.dataDir), legacy);
  } else {
    // In memory only (tests, a throw-away server): tokens end with the process.
    key = legacy !== undefined ? Buffer.from(legacy, 'base64') : randomBytes(32);
  }
  if (legacy !== undefined) await deleteSetting(db, LEGACY_SETTING);
  return key;
}

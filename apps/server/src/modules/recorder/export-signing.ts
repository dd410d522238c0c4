import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { appendFile, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportManifest, ExportProblem, ExportVerdict } from '@ship-cctv/protocol';

/**
 * Signed clip exports. A clip's MP4 carries, as its last top-level box, a manifest (the SHA-256 and
 * size of the media before it, ship, camera, span, who exported it and when) and the Ed25519
 * signature of the manifest's exact bytes by the installation's export key. Players skip the box
 * (an ISO BMFF `uuid` box of this product's own type), so the file still plays as it did; a
 * verifier with the public key finds any changed byte: in the media the hash differs, in the
 * manifest or signature the signature fails, in the box structure the manifest is not found.
 */

/** The `uuid` box's user type: "ship-cctv-export" as 16 ASCII bytes. */
export const EXPORT_BOX_TYPE = Buffer.from('ship-cctv-export', 'latin1');
export const EXPORT_FORMAT = 'ship-cctv-export/1';
const SIGNATURE_BYTES = 64;
/** A manifest is a few hundred bytes; a signature box larger than this is not ours. */
const MAX_BOX_BYTES = 1 << 20;

/** The installation's export key. */
export interface ExportKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** First 16 hex digits of the SHA-256 of the raw public key: names the key in manifests. */
  keyId: string;
  /** The public key as PEM (SPKI), for offline verification. */
  publicPem: string;
}

/** Where the export key comes from, like the session tokens' signing key. */
export interface ExportKeySource {
  /** EXPORT_SIGNING_KEY: an Ed25519 private key, PKCS#8 as PEM or base64 DER; the same on every instance. */
  secret?: string | undefined;
  /** Without a secret: DATA_DIR/secrets/export-signing.key (0600), made on first start; its public half beside it. */
  dataDir?: string | undefined;
}

export const exportKeyFile = (dataDir: string) => join(dataDir, 'secrets', 'export-signing.key');
export const exportPublicKeyFile = (dataDir: string) => join(dataDir, 'secrets', 'export-signing.pub');

export function keyIdOf(publicKey: KeyObject): string {
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

function exportKey(privateKey: KeyObject): ExportKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the export signing key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey), publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString() };
}

function parsePrivateKey(text: string): KeyObject {
  const trimmed = text.trim();
  return trimmed.startsWith('-----BEGIN')
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
}

/**
 * The installation's export key, never in the database: EXPORT_SIGNING_KEY, else the key file in
 * DATA_DIR/secrets (created exclusively, owner-only; the public key is written beside it), else a
 * key of this process only (tests, a throw-away server).
 */
export function loadExportKey(source: ExportKeySource): ExportKey {
  if (source.secret !== undefined && source.secret !== '') return exportKey(parsePrivateKey(source.secret));
  if (source.dataDir === undefined) return exportKey(generateKeyPairSync('ed25519').privateKey);
  const path = exportKeyFile(source.dataDir);
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  try {
    const fresh = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    writeFileSync(path, fresh, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = exportKey(parsePrivateKey(readFileSync(path, 'utf8')));
  writeFileSync(exportPublicKeyFile(source.dataDir), key.publicPem, { mode: 0o600 });
  return key;
}

/** A public key from PEM text (SPKI; a private key gives its public half). */
export function parsePublicKey(pem: string): KeyObject {
  const text = pem.trim();
  const key = text.includes('PRIVATE KEY') ? createPublicKey(createPrivateKey(text)) : createPublicKey(text);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  return key;
}

async function sha256Of(path: string, end: number): Promise<string> {
  const hash = createHash('sha256');
  if (end > 0) {
    for await (const chunk of createReadStream(path, { start: 0, end: end - 1 })) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/** What the export says of itself, apart from its file (hashed when signed) and key. */
export type ExportFacts = Omit<ExportManifest, 'format' | 'files' | 'keyId' | 'exportedAt'>;

/**
 * Appends the signed manifest to a finished clip file `path`, listed in it as `name`; returns the
 * manifest. The hash covers every byte of the file as it was.
 */
export async function signExport(path: string, name: string, facts: ExportFacts, key: ExportKey, now = Date.now()): Promise<ExportManifest> {
  const bytes = (await stat(path)).size;
  const manifest: ExportManifest = {
    format: EXPORT_FORMAT,
    ...facts,
    exportedAt: now,
    files: [{ name, bytes, sha256: await sha256Of(path, bytes) }],
    keyId: key.keyId,
  };
  const text = Buffer.from(JSON.stringify(manifest), 'utf8');
  const signature = sign(null, text, key.privateKey);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(text.length);
  const payload = Buffer.concat([EXPORT_BOX_TYPE, length, text, signature]);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length);
  header.write('uuid', 4, 'latin1');
  await appendFile(path, Buffer.concat([header, payload]));
  return manifest;
}

const PROBLEM_TEXT: Record<ExportProblem, string> = {
  notSigned: '文件不含签名清单 (the file carries no signed manifest: not an export of this system, or its end was cut or changed)',
  malformed: '文件结构已损坏 (the file is damaged: its boxes or manifest do not hold together)',
  unknownKey: '签名密钥不是本系统的 (signed with another key than this installation\'s)',
  badSignature: '清单或签名已被改动 (the manifest or its signature was changed)',
  contentChanged: '视频内容已被改动 (the video was changed since it was exported: its SHA-256 differs)',
};

function verdict(problem: ExportProblem | null, keyId: string, manifest: ExportManifest | null): ExportVerdict {
  return {
    intact: problem === null,
    problem,
    detail: problem === null ? '文件完整，签名有效 (intact: every byte is as exported, signed by this installation)' : PROBLEM_TEXT[problem],
    keyId,
    manifest,
  };
}

interface Box {
  start: number;
  size: number;
  type: string;
}

/** The file's top-level boxes, or undefined when they do not tile it exactly. */
async function topLevelBoxes(file: Awaited<ReturnType<typeof open>>, size: number): Promise<Box[] | undefined> {
  const boxes: Box[] = [];
  const header = Buffer.alloc(16);
  let at = 0;
  while (at < size) {
    if (size - at < 8) return undefined;
    await file.read(header, 0, 16, at);
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (boxSize === 1) {
      if (size - at < 16) return undefined;
      boxSize = Number(header.readBigUInt64BE(8));
    } else if (boxSize === 0) {
      boxSize = size - at;
    }
    if (boxSize < 8 || at + boxSize > size) return undefined;
    boxes.push({ start: at, size: boxSize, type });
    at += boxSize;
  }
  return boxes;
}

function isManifest(value: unknown): value is ExportManifest {
  const m = value as ExportManifest;
  return (
    typeof m === 'object' && m !== null && m.format === EXPORT_FORMAT && Array.isArray(m.files) && m.files.length === 1 &&
    typeof m.files[0]?.sha256 === 'string' && typeof m.files[0].bytes === 'number' && typeof m.keyId === 'string'
  );
}

/** Whether the export file at `path` is intact and signed by `publicKey`, and what it holds. */
export async function verifyExport(path: string, publicKey: KeyObject): Promise<ExportVerdict> {
  const keyId = keyIdOf(publicKey);
  const size = (await stat(path)).size;
  const file = await open(path, 'r');
  let media: number;
  let text: Buffer;
  let signature: Buffer;
  try {
    const boxes = await topLevelBoxes(file, size);
    if (!boxes) return verdict('malformed', keyId, null);
    const last = boxes.at(-1);
    if (!last || last.type !== 'uuid' || last.size < 8 + 16 + 4 + SIGNATURE_BYTES) return verdict('notSigned', keyId, null);
    if (last.size > MAX_BOX_BYTES) return verdict('malformed', keyId, null);
    const box = Buffer.alloc(last.size);
    await file.read(box, 0, last.size, last.start);
    if (box.readUInt32BE(0) !== last.size) return verdict('malformed', keyId, null); // 64-bit or to-end sizes are never written
    if (!box.subarray(8, 24).equals(EXPORT_BOX_TYPE)) return verdict('notSigned', keyId, null);
    const length = box.readUInt32BE(24);
    if (28 + length + SIGNATURE_BYTES !== last.size) return verdict('malformed', keyId, null);
    text = box.subarray(28, 28 + length);
    signature = box.subarray(28 + length);
    media = last.start;
  } finally {
    await file.close();
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.toString('utf8'));
  } catch {
    manifest = undefined;
  }
  if (!verify(null, text, publicKey, signature)) {
    const otherKey = isManifest(manifest) && manifest.keyId !== keyId;
    return verdict(otherKey ? 'unknownKey' : 'badSignature', keyId, null);
  }
  // Signed by this key: the manifest is as it was made; what remains is the media it describes.
  if (!isManifest(manifest)) return verdict('malformed', keyId, null);
  const [entry] = manifest.files;
  if (!entry || entry.bytes !== media || entry.sha256 !== (await sha256Of(path, media))) return verdict('contentChanged', keyId, manifest);
  return verdict(null, keyId, manifest);
}

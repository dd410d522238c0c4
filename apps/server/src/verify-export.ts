/**
 * `npm run verify-export -- FILE [--key PUBLIC_KEY.pem]`: checks a clip export offline, with the
 * installation's public export key only (no server, no database). Prints what the signed manifest
 * holds and whether every byte is as exported; exits 0 when intact, 1 when not, 2 when it could
 * not check (no file, no key).
 *
 * The key: `--key FILE`, else EXPORT_PUBLIC_KEY (a PEM file), else DATA_DIR/secrets/export-signing.pub
 * (DATA_DIR default ./data). It is also at GET /api/v1/cctv/record/export/key.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportPublicKeyFile, parsePublicKey, verifyExport } from './modules/recorder/export-signing.ts';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { key: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const [file] = parsed.positionals;
  if (!file || parsed.positionals.length > 1) {
    console.error('usage: npm run verify-export -- FILE [--key PUBLIC_KEY.pem] [--json]');
    return 2;
  }
  const keyPath = parsed.values.key ?? process.env.EXPORT_PUBLIC_KEY ?? exportPublicKeyFile(resolve(process.env.DATA_DIR ?? './data'));
  let key;
  try {
    key = parsePublicKey(readFileSync(keyPath, 'utf8'));
  } catch (err) {
    console.error(`cannot read the public export key ${keyPath}: ${(err as Error).message}`);
    return 2;
  }
  let verdict;
  try {
    verdict = await verifyExport(resolve(file), key);
  } catch (err) {
    console.error(`cannot read ${file}: ${(err as Error).message}`);
    return 2;
  }
  if (parsed.values.json) {
    console.log(JSON.stringify(verdict, null, 2));
  } else {
    console.log(`${verdict.intact ? 'INTACT' : 'NOT INTACT'}: ${verdict.detail}`);
    console.log(`key          ${verdict.keyId}`);
    const m = verdict.manifest;
    if (m) {
      console.log(`ship         ${m.ship.name} (${m.ship.id})`);
      console.log(`camera       ${m.camera.name} (${m.camera.id})`);
      console.log(`span         ${new Date(m.start).toISOString()} – ${new Date(m.end).toISOString()}`);
      console.log(`exported by  ${m.exportedBy.displayName} (${m.exportedBy.username}) at ${new Date(m.exportedAt).toISOString()}`);
      for (const f of m.files) console.log(`file         ${f.name}  ${f.bytes} bytes  sha256 ${f.sha256}`);
    }
  }
  return verdict.intact ? 0 : 1;
}

process.exitCode = await main();

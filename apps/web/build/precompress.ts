import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { kb } from './chunks.ts';

/** Text files a browser fetches; images and fonts in the build are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|map)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

export interface PrecompressReport {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to each text file of
 * `dir`, which the shore server sends as they are to browsers that accept them (@fastify/static
 * `preCompressed`): the best compression once per build, no CPU per request.
 */
export function precompressDir(dir: string): PrecompressReport {
  const report: PrecompressReport = { files: 0, rawBytes: 0, gzipBytes: 0, brotliBytes: 0 };
  for (const path of listFiles(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const raw = readFileSync(path);
    if (raw.length < MIN_BYTES) continue;
    const gzip = gzipSync(raw, { level: 9 });
    const brotli = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    writeFileSync(`${path}.gz`, gzip);
    writeFileSync(`${path}.br`, brotli);
    report.files += 1;
    report.rawBytes += raw.length;
    report.gzipBytes += gzip.length;
    report.brotliBytes += brotli.length;
  }
  return report;
}

/** Vite plugin: pre-compresses the written build and prints what it saves (issue 17 item 4). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'ship-cctv:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const started = Date.now();
      const r = precompressDir(outDir);
      console.log(
        `\npre-compressed ${r.files} files of ${relative(process.cwd(), outDir) || '.'} in ${Date.now() - started} ms: ` +
          `${kb(r.rawBytes)} → ${kb(r.gzipBytes)} gzip, ${kb(r.brotliBytes)} brotli`,
      );
    },
  };
}

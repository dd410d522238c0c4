import { gzipSync } from 'node:zlib';

/** The parts of an output chunk the budgets read (rolldown's OutputChunk). */
export interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  moduleIds: readonly string[];
}

/** Level 9, as the build's pre-compressed .gz files (build/precompress.ts) and most servers' gzip. */
export const gzipSize = (code: string) => gzipSync(code, { level: 9 }).length;

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The chunk whose facade module's path ends with `suffix` (e.g. `src/app/App.tsx`). */
export function chunkOfModule(chunks: readonly ChunkInfo[], suffix: string): ChunkInfo | undefined {
  return chunks.find((chunk) => chunk.facadeModuleId?.replaceAll('\\', '/').endsWith(suffix));
}

/** The files of `starts` and every chunk they import statically: what the browser loads before running them. */
export function staticClosure(chunks: readonly ChunkInfo[], starts: readonly ChunkInfo[]): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const chunk = queue.pop();
    if (!chunk || seen.has(chunk.fileName)) continue;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) {
      const found = byFile.get(file);
      if (found) queue.push(found);
    }
  }
  return seen;
}

import type { Plugin } from 'vite';
import { gzipSize, kb, type ChunkInfo } from './chunks.ts';

export interface MobileBudgetOptions {
  /** Path suffix of the module main.tsx imports for phones, e.g. `src/mobile/MobileApp.tsx`. */
  entryModule: string;
  /** Budget for what the mobile app loads to show its first screen, gzip bytes (the lazy parts are printed, not limited). */
  limitBytes: number;
  /** Modules that must never be loaded by the mobile app (the desktop's UI library). */
  forbidden: RegExp;
}

export interface BudgetReport {
  /** Chunk file → gzip bytes, of every chunk the mobile app loads. */
  chunks: { fileName: string; gzipBytes: number; lazy: boolean }[];
  initialBytes: number;
  totalBytes: number;
  forbiddenModules: string[];
}

/**
 * What a phone downloads: the page's entry chunk and its static imports, the mobile app's chunk and
 * its static imports (together: the first screen), then whatever the mobile app imports lazily.
 * The entry's own dynamic imports are not followed: one of them is the desktop app.
 */
export function measureMobile(chunks: readonly ChunkInfo[], options: Pick<MobileBudgetOptions, 'entryModule' | 'forbidden'>): BudgetReport {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  const mobile = chunks.find((chunk) => chunk.facadeModuleId?.replaceAll('\\', '/').endsWith(options.entryModule));
  if (!entry) throw new Error('mobile budget: the build has no entry chunk');
  if (!mobile) throw new Error(`mobile budget: no chunk for ${options.entryModule} (is it still imported dynamically by main.tsx?)`);

  const walk = (starts: readonly ChunkInfo[], seen: Set<string>, followDynamic: boolean) => {
    const queue = [...starts];
    while (queue.length > 0) {
      const chunk = queue.pop();
      if (!chunk || seen.has(chunk.fileName)) continue;
      seen.add(chunk.fileName);
      const next = followDynamic ? [...chunk.imports, ...chunk.dynamicImports] : chunk.imports;
      for (const file of next) {
        const found = byFile.get(file);
        if (found) queue.push(found);
      }
    }
    return seen;
  };
  const initial = walk([entry, mobile], new Set(), false);
  // Lazy parts: what the mobile app's own chunks import dynamically, and all they reach.
  const mobileChunks = [...walk([mobile], new Set([entry.fileName]), false)].filter((file) => file !== entry.fileName).flatMap((file) => byFile.get(file) ?? []);
  const lazyStarts = mobileChunks.flatMap((chunk) => chunk.dynamicImports.flatMap((file) => byFile.get(file) ?? []));
  const all = walk(lazyStarts, new Set(initial), true);

  const report: BudgetReport = { chunks: [], initialBytes: 0, totalBytes: 0, forbiddenModules: [] };
  for (const file of all) {
    const chunk = byFile.get(file);
    if (!chunk) continue;
    const gzipBytes = gzipSize(chunk.code);
    const lazy = !initial.has(file);
    report.chunks.push({ fileName: file, gzipBytes, lazy });
    report.totalBytes += gzipBytes;
    if (!lazy) report.initialBytes += gzipBytes;
    report.forbiddenModules.push(...chunk.moduleIds.filter((id) => options.forbidden.test(id.replaceAll('\\', '/'))));
  }
  report.chunks.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return report;
}

/** The packages (or source folders) of a chunk with their rendered size, largest first. */
export function chunkDetail(chunk: ChunkInfo): string {
  const sizes = new Map<string, number>();
  const modules = (chunk as unknown as { modules: Record<string, { renderedLength: number }> }).modules;
  for (const [id, module] of Object.entries(modules)) {
    const where = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? id.replace(/.*apps\/web\/src\//, 'src/').replace(/\/[^/]+$/, '');
    sizes.set(where, (sizes.get(where) ?? 0) + module.renderedLength);
  }
  const top = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return `${chunk.fileName}: ${top.map(([where, bytes]) => `${where} ${kb(bytes)}`).join(', ')}`;
}

/**
 * Build check of the mobile entry (its first screen under 250 KB gzip, and none of antd): prints
 * the gzip size of every JavaScript chunk a phone may load and fails the build when the first
 * screen is over budget or when a desktop UI module slipped in.
 */
export function mobileBudget(options: MobileBudgetOptions): Plugin {
  return {
    name: 'ship-cctv:mobile-budget',
    apply: 'build',
    generateBundle(_output, bundle) {
      const chunks = Object.values(bundle).filter((item): item is typeof item & ChunkInfo => item.type === 'chunk') as unknown as ChunkInfo[];
      const report = measureMobile(chunks, options);
      // MOBILE_BUDGET_DETAIL=1 also prints what fills each chunk (minified size before gzip, by package).
      if (process.env.MOBILE_BUDGET_DETAIL) for (const chunk of chunks) console.log(chunkDetail(chunk));
      const lines = report.chunks.map((c) => `  ${kb(c.gzipBytes).padStart(9)}  ${c.fileName}${c.lazy ? '  (lazy)' : ''}`);
      console.log(
        [
          `\nmobile entry JavaScript (gzip): ${kb(report.initialBytes)} first screen (budget ${kb(options.limitBytes)}), ${kb(report.totalBytes)} with every lazily loaded part; a browser's figure: e2e/mobile-js-budget.spec.ts`,
          ...lines,
        ].join('\n'),
      );
      if (report.forbiddenModules.length > 0) {
        // Name the modules outside the forbidden set that import it: that is what to fix.
        const forbidden = new Set(report.forbiddenModules);
        const culprits = new Set<string>();
        for (const id of forbidden) {
          for (const importer of this.getModuleInfo(id)?.importers ?? []) if (!options.forbidden.test(importer.replaceAll('\\', '/'))) culprits.add(`${importer} → ${id}`);
        }
        this.error(`mobile entry loads ${forbidden.size} desktop UI modules, imported by:\n  ${[...culprits].slice(0, 10).join('\n  ')}`);
      }
      // The budget is what a phone downloads to reach its main screen, as e2e/mobile-js-budget.spec.ts
      // measures it in the browser (brotli, on the wire); parts loaded later (a live video's player,
      // stills, PTZ, talk) are printed above but load only when used.
      if (report.initialBytes > options.limitBytes) {
        this.error(`mobile first screen JavaScript is ${kb(report.initialBytes)} gzip, over its budget of ${kb(options.limitBytes)}`);
      }
    },
  };
}

import type { Plugin } from 'vite';
import { chunkOfModule, gzipSize, kb, staticClosure, type ChunkInfo } from './chunks.ts';

export interface DesktopBudgetOptions {
  /** Path suffix of the desktop app's module, which main.tsx imports lazily: `src/app/App.tsx`. */
  appModule: string;
  /** Path suffix of the screen a signed-in user lands on (the live preview): the first screen. */
  firstScreenModule: string;
  /** Budget of the first screen's JavaScript, gzip bytes. */
  limitBytes: number;
}

export interface ScreenSize {
  /** The lazily loaded screen's module, relative to the app (`src/…`). */
  screen: string;
  /** Gzip bytes of the entry, App and the screen's chunks with all they import statically. */
  gzipBytes: number;
  /** Their files, largest first, with gzip bytes. */
  chunks: { fileName: string; gzipBytes: number }[];
}

export interface DesktopReport {
  firstScreen: ScreenSize;
  /** Every screen App loads lazily (routes/lazy-pages.ts), opened as the first one of a visit. */
  screens: ScreenSize[];
}

/** What a desktop browser downloads to show one screen when it opens the app on it. */
export function measureDesktop(chunks: readonly ChunkInfo[], options: Pick<DesktopBudgetOptions, 'appModule' | 'firstScreenModule'>): DesktopReport {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  const app = chunkOfModule(chunks, options.appModule);
  if (!entry) throw new Error('desktop budget: the build has no entry chunk');
  if (!app) throw new Error(`desktop budget: no chunk for ${options.appModule} (is it still imported dynamically by main.tsx?)`);
  const sizes = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) sizes.set(file, (size = gzipSize(byFile.get(file)?.code ?? '')));
    return size;
  };
  // The screens: what App and its static imports load lazily, apart from what the entry itself does (App, MobileApp).
  const entryFiles = staticClosure(chunks, [entry]);
  const appChunks = [...staticClosure(chunks, [app])].filter((file) => !entryFiles.has(file)).flatMap((file) => byFile.get(file) ?? []);
  const screenFiles = new Set(appChunks.flatMap((chunk) => chunk.dynamicImports));
  const screenChunks = [...screenFiles].filter((file) => file !== app.fileName).flatMap((file) => byFile.get(file) ?? []);
  const screens = screenChunks.map((screen): ScreenSize => {
    const files = [...staticClosure(chunks, [entry, app, screen])];
    const sized = files.map((fileName) => ({ fileName, gzipBytes: sizeOf(fileName) })).sort((a, b) => b.gzipBytes - a.gzipBytes);
    const name = screen.facadeModuleId?.replaceAll('\\', '/').replace(/.*\/apps\/web\//, '') ?? screen.fileName;
    return { screen: name, gzipBytes: sized.reduce((sum, c) => sum + c.gzipBytes, 0), chunks: sized };
  });
  const firstScreen = screens.find((s) => s.screen.endsWith(options.firstScreenModule));
  if (!firstScreen) throw new Error(`desktop budget: ${options.firstScreenModule} is not a lazily loaded screen of ${options.appModule}`);
  return { firstScreen, screens: screens.sort((a, b) => b.gzipBytes - a.gzipBytes) };
}

/**
 * Build check of the desktop's first screen (≤ 350 KB gzip): prints the gzip size of the JavaScript
 * the live preview loads, and of each other screen opened first, and fails the build when the first
 * screen is over budget — an early warning during the build. It counts the chunks the build knows
 * the screen imports statically; what a browser really downloads from the sign-in page to the main
 * preview (more files: the sign-in page, parts loaded on demand) is measured on the wire, brotli as
 * served, by e2e/js-budget.spec.ts, which holds the same 350 KB.
 */
export function desktopBudget(options: DesktopBudgetOptions): Plugin {
  return {
    name: 'ship-cctv:desktop-budget',
    apply: 'build',
    generateBundle(_output, bundle) {
      const chunks = Object.values(bundle).filter((item): item is typeof item & ChunkInfo => item.type === 'chunk') as unknown as ChunkInfo[];
      const { firstScreen, screens } = measureDesktop(chunks, options);
      console.log(
        [
          `\ndesktop first screen JavaScript (gzip, ${firstScreen.screen}): ${kb(firstScreen.gzipBytes)} in ${firstScreen.chunks.length} files; budget ${kb(options.limitBytes)}`,
          '  (the entry, App and the screen with their static imports: a subset of what a browser downloads from the sign-in page on; its figure, on the wire, is e2e/js-budget.spec.ts)',
          ...firstScreen.chunks.slice(0, 8).map((c) => `  ${kb(c.gzipBytes).padStart(9)}  ${c.fileName}`),
          `  ${firstScreen.chunks.length > 8 ? `… and ${firstScreen.chunks.length - 8} smaller files` : ''}`,
          'each part App loads lazily, opened first with the entry and App (gzip):',
          ...screens.map((s) => `  ${kb(s.gzipBytes).padStart(9)}  ${s.screen}`),
        ].join('\n'),
      );
      // DESKTOP_BUDGET_DETAIL=1 also prints the largest modules of the first screen (minified, before gzip).
      if (process.env.DESKTOP_BUDGET_DETAIL) console.log(firstScreenDetail(chunks, firstScreen));
      if (firstScreen.gzipBytes > options.limitBytes) {
        this.error(`desktop first screen JavaScript is ${kb(firstScreen.gzipBytes)} gzip, over its budget of ${kb(options.limitBytes)}`);
      }
    },
  };
}

/** The first screen's modules grouped by package, antd by component, largest first. */
function firstScreenDetail(chunks: readonly ChunkInfo[], screen: ScreenSize): string {
  const files = new Set(screen.chunks.map((c) => c.fileName));
  const sizes = new Map<string, number>();
  for (const chunk of chunks.filter((c) => files.has(c.fileName))) {
    const modules = (chunk as unknown as { modules: Record<string, { renderedLength: number }> }).modules;
    for (const [id, module] of Object.entries(modules)) {
      const path = id.replaceAll('\\', '/');
      const where = /node_modules\/(antd\/es\/[^/]+|@rc-component\/[^/]+|(?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.replace(/.*apps\/web\/src\//, 'src/').replace(/\/[^/]+$/, '');
      sizes.set(where, (sizes.get(where) ?? 0) + module.renderedLength);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 60).map(([where, bytes]) => `  ${kb(bytes).padStart(9)}  ${where}`).join('\n');
}

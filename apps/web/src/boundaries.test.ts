// @vitest-environment node
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(SRC, '../../..');
const eslint = new ESLint({ cwd: REPO });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(SRC, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'web/feature-boundaries').map((m) => m.message);
}

describe('feature boundaries (the lint rule web/feature-boundaries)', () => {
  it("refuses a deep import of another feature's file, and names its public index", async () => {
    expect(await boundaryErrors('features/live/x.ts', "import { orgTree } from '../fleet/tree.ts';\nexport const y = orgTree;\n")).toEqual([
      'features/fleet/tree.ts is inside the fleet feature: import it from features/fleet/index.ts, its public index.',
    ]);
    // From the app shell and the mobile screens too, and for re-exports and dynamic imports.
    expect(await boundaryErrors('app/x.ts', "export { orgTree } from '../features/fleet/tree.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors('mobile/x.ts', "export const p = import('../features/live/components/PlayGrid.tsx');\n")).toHaveLength(1);
  });

  it('lets a feature import its own files, another feature through its index, and texts through locales.ts', async () => {
    expect(await boundaryErrors('features/live/x.ts', "import { a } from './components/PlayGrid.tsx';\nimport { b } from '../fleet/index.ts';\nexport const c = [a, b];\n")).toEqual([]);
    expect(await boundaryErrors('i18n/locales/x.ts', "import { fleetEn } from '../../features/fleet/locales.ts';\nexport const e = fleetEn;\n")).toEqual([]);
  });

  it("lets the app shell load a feature's screens (pages.ts) and cell control (cell-control.ts) lazily", async () => {
    expect(await boundaryErrors('app/routes/x.ts', "export const p = import('../../features/carousel/pages.ts');\n")).toEqual([]);
    expect(await boundaryErrors('app/x.ts', "export const c = import('../features/ptz/cell-control.ts');\n")).toEqual([]);
    // Still not any other file of the feature.
    expect(await boundaryErrors('app/x.ts', "export const c = import('../features/ptz/components/PtzControl.tsx');\n")).toHaveLength(1);
  });

  it('refuses any feature in shared code', async () => {
    expect(await boundaryErrors('shared/x.ts', "import { a } from '../features/fleet/index.ts';\nexport const b = a;\n")).toEqual([
      'shared/x.ts is shared code and may not import the fleet feature (features/fleet/index.ts).',
    ]);
    expect(await boundaryErrors('lib/x.ts', "import { a } from '../features/live/index.ts';\nexport const b = a;\n")).toHaveLength(1);
  });

  it('refuses the app shell in features and shared code, but not in their tests', async () => {
    expect(await boundaryErrors('features/talk/components/x.tsx', "import { AppProviders } from '../../../app/providers.tsx';\nexport const p = AppProviders;\n")).toEqual([
      'features/talk/components/x.tsx may not import the app shell (app/providers.tsx): features and shared code sit below it.',
    ]);
    expect(await boundaryErrors('shared/layout/x.tsx', "export { DesktopShell } from '../../app/layout/DesktopShell.tsx';\n")).toHaveLength(1);
    expect(await boundaryErrors('lib/x.ts', "export const t = import('../app/theme.ts');\n")).toHaveLength(1);
    // A test renders a screen inside the app's providers, as the app does; the shell imports itself.
    expect(await boundaryErrors('features/talk/components/x.test.tsx', "import { AppProviders } from '../../../app/providers.tsx';\nexport const p = AppProviders;\n")).toEqual([]);
    expect(await boundaryErrors('app/layout/x.tsx', "import { AppProviders } from '../providers.tsx';\nexport const p = AppProviders;\n")).toEqual([]);
  });

  it('holds today: no feature or shared file but tests imports the app shell', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          for (const [, from, dynamic] of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
            const spec = from ?? dynamic;
            if (spec && relative(SRC, resolve(dirname(path), spec)).split(sep)[0] === 'app') offenders.push(relative(SRC, path));
          }
        }
      }
    };
    for (const area of ['features', 'shared', 'lib']) walk(join(SRC, area));
    expect(offenders).toEqual([]);
  });

  it('holds today: no feature imports another in a cycle', () => {
    const features = readdirSync(join(SRC, 'features')).filter((d) => statSync(join(SRC, 'features', d)).isDirectory());
    const uses = new Map(features.map((f) => [f, new Set<string>()]));
    const walk = (dir: string, feature: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path, feature);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          for (const [, spec] of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
            const target = relative(join(SRC, 'features'), resolve(dirname(path), spec ?? '')).split(sep)[0];
            if (target && target !== feature && uses.has(target)) uses.get(feature)?.add(target);
          }
        }
      }
    };
    for (const f of features) walk(join(SRC, 'features', f), f);
    const cycle = (from: string, path: string[]): string[] | undefined => {
      if (path.includes(from)) return [...path.slice(path.indexOf(from)), from];
      for (const next of uses.get(from) ?? []) {
        const found = cycle(next, [...path, from]);
        if (found) return found;
      }
      return undefined;
    };
    expect(features.map((f) => cycle(f, [])).find(Boolean)).toBeUndefined();
    expect(uses.get('fleet')?.has('live')).toBe(true); // the source tree adds to the play grid's playlist
    expect(uses.get('live')?.has('fleet')).toBe(false); // and the play grid needs nothing of the tree
  });
});

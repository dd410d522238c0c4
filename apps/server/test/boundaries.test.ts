import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The server's shape as the lint rule server/module-boundaries holds it (scripts/eslint/
 * server-boundaries.js, switched on in eslint.config.js): sources are linted with the repository's
 * own configuration, placed (without being written) at paths under apps/server/src.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const REPO = resolve(SRC, '../../..');
const eslint = new ESLint({ cwd: REPO });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(SRC, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'server/module-boundaries').map((m) => m.message);
}

describe('modules on the core (the lint rule server/module-boundaries)', () => {
  it("refuses a module's import of another module's inner file, and names its index.ts", async () => {
    expect(await boundaryErrors('modules/stills/x.ts', "import { PictureFiles } from '../pictures/picture-files.ts';\nexport const f = PictureFiles;\n")).toEqual([
      'modules/pictures/picture-files.ts is inside the pictures module: import it from modules/pictures/index.ts, its public surface.',
    ]);
    // Re-exports and dynamic imports alike.
    expect(await boundaryErrors('modules/talk/x.ts', "export { ViewerSession } from '../viewer/viewer-session.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors('modules/talk/x.ts', "export const v = import('../viewer/viewer-session.ts');\n")).toHaveLength(1);
  });

  it("lets a module import its own files, the core, and other modules' index.ts", async () => {
    const code = [
      "import { a } from './still-rules.ts';",
      "import { b } from '../pictures/index.ts';",
      "import { c } from '../../core/http/envelope.ts';",
      "import { d } from '../../core/ship-link/index.ts';",
      'export const e = [a, b, c, d];',
      '',
    ].join('\n');
    expect(await boundaryErrors('modules/stills/x.ts', code)).toEqual([]);
  });

  it('refuses a module importing what is neither the core nor a module (app.ts)', async () => {
    expect(await boundaryErrors('modules/ptz/x.ts', "import { buildApp } from '../../app.ts';\nexport const b = buildApp;\n")).toEqual([
      "modules/ptz/x.ts is a module and may import only the core and other modules' index.ts, not app.ts.",
    ]);
  });

  it('refuses the core importing a module', async () => {
    expect(await boundaryErrors('core/http/x.ts', "import { FleetService } from '../../modules/fleet/index.ts';\nexport const f = FleetService;\n")).toEqual([
      'core/http/x.ts is core and may not import a module (modules/fleet/index.ts): modules use the core, not the reverse.',
    ]);
  });

  it('lets only repo.ts files and core/db import drizzle and the tables', async () => {
    const drizzle = "import { eq } from 'drizzle-orm';\nexport const e = eq;\n";
    const tables = "import * as t from '../../core/db/schema.ts';\nexport const s = t.ships;\n";
    expect(await boundaryErrors('modules/fleet/fleet-service.ts', drizzle)).toEqual([
      'modules/fleet/fleet-service.ts may not touch the database (drizzle-orm): only repo.ts files and core/db import drizzle and the tables.',
    ]);
    expect(await boundaryErrors('modules/fleet/x.ts', "import { pgTable } from 'drizzle-orm/pg-core';\nexport const p = pgTable;\n")).toHaveLength(1);
    expect(await boundaryErrors('modules/fleet/x.ts', tables)).toHaveLength(1);
    expect(await boundaryErrors('modules/fleet/x.ts', "import { ships } from '../../core/db/tables/fleet.ts';\nexport const s = ships;\n")).toHaveLength(1);
    expect(await boundaryErrors('core/orgs/access.ts', drizzle)).toHaveLength(1);
    expect(await boundaryErrors('modules/fleet/repo.ts', drizzle + tables.replace('export const s', 'export const u'))).toEqual([]);
    expect(await boundaryErrors('core/orgs/repo.ts', drizzle)).toEqual([]);
    expect(await boundaryErrors('core/db/health.ts', drizzle)).toEqual([]);
  });

  it('lets only core/ship-link speak to ship agents', async () => {
    // Its insides (the gateway, connections, relay) are its own: others use its index.ts.
    expect(await boundaryErrors('modules/ptz/x.ts', "import type { AgentGateway } from '../../core/ship-link/gateway.ts';\nexport type G = AgentGateway;\n")).toEqual([
      'core/ship-link/gateway.ts is inside core/ship-link: only it speaks to ship agents; import core/ship-link/index.ts.',
    ]);
    expect(await boundaryErrors('core/bus/x.ts', "import { LinkRelay } from '../ship-link/link-relay.ts';\nexport const r = LinkRelay;\n")).toHaveLength(1);
    // The link's wire: upgrade headers, versions, the frame codec, the link-wide message checks.
    expect(await boundaryErrors('modules/pictures/x.ts', "import { AGENT_HEADERS, encodeStreamFrame, type PictureInfo } from '@ship-cctv/protocol';\nexport const h = [AGENT_HEADERS, encodeStreamFrame];\nexport type P = PictureInfo;\n")).toEqual([
      "AGENT_HEADERS is the agent link's wire: only core/ship-link speaks to ship agents.",
      "encodeStreamFrame is the agent link's wire: only core/ship-link speaks to ship agents.",
    ]);
    expect(await boundaryErrors('modules/live/x.ts', "import { PATHS } from '@ship-cctv/protocol';\nexport const p = PATHS.agentLink;\n")).toEqual([
      "PATHS.agentLink is the ship agents' endpoint: only core/ship-link speaks to ship agents.",
    ]);
    // Inside core/ship-link all of it is fine; a kind's own messages are every module's.
    expect(await boundaryErrors('core/ship-link/x.ts', "import { AGENT_HEADERS, PATHS } from '@ship-cctv/protocol';\nexport const h = [AGENT_HEADERS, PATHS.agentLink];\n")).toEqual([]);
    expect(await boundaryErrors('modules/ptz/x.ts', "import { PATHS, type PtzRequest } from '@ship-cctv/protocol';\nexport const p = PATHS.media;\nexport type R = PtzRequest;\n")).toEqual([]);
  });

  it('fails a real module file once a change breaks the shape, and passes it as it is', async () => {
    const file = 'modules/stills/still-service.ts';
    const source = readFileSync(join(SRC, file), 'utf8');
    expect(await boundaryErrors(file, source)).toEqual([]);
    // The stills service reading its table itself instead of through its repo.ts.
    const broken = `import { eq } from 'drizzle-orm';\nimport { cameraStills } from '../../core/db/schema.ts';\nexport const peek = [eq, cameraStills];\n${source}`;
    expect(await boundaryErrors(file, broken)).toHaveLength(2);
    // Or reaching into another module.
    const deep = source.replace("from '../pictures/index.ts'", "from '../pictures/picture-service.ts'");
    expect(deep).not.toBe(source);
    expect(await boundaryErrors(file, deep)).toEqual([
      'modules/pictures/picture-service.ts is inside the pictures module: import it from modules/pictures/index.ts, its public surface.',
    ]);
  });
});

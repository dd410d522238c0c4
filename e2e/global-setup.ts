import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The server serves apps/web/dist (or WEB_DIST); without a build every page test would fail on a
 * "not built" page. With WEB_DIST the demo script builds into it when the sources changed.
 */
export default function globalSetup(): void {
  if (process.env.WEB_DIST) return;
  const index = fileURLToPath(new URL('../apps/web/dist/index.html', import.meta.url));
  if (!existsSync(index)) throw new Error(`${index} is missing: run \`npm run build\` before the end-to-end tests`);
}

// The web app's feature boundaries, as an ESLint rule: a feature (apps/web/src/features/<name>)
// is used from outside only through its public index (index.ts) — and its texts (locales.ts), which
// the i18n resources gather, its screens (pages.ts) and its live-cell control (cell-control.ts),
// which the app shell loads lazily so each is its own chunk; shared code (shared/, lib/, i18n/ apart
// from the texts) imports no feature at all. Features and shared code import nothing of the app
// shell (app/): the shell is built from them, and gives them what it decides (the runtime
// configuration, the statistics panel of a sidebar page) through shared contexts. Test files may
// render a screen inside the app's providers, as the app does. So a feature can change inside
// without breaking another, and features do not import each other in a cycle.
import { dirname, relative, resolve, sep } from 'node:path';

const PUBLIC_FILES = new Set(['index.ts', 'locales.ts', 'pages.ts', 'cell-control.ts']);
const SHARED_DIRS = new Set(['shared', 'lib']);
/** Areas that may not import the app shell (app/). */
const BELOW_SHELL = new Set(['features', 'shared', 'lib']);
const isTest = (path) => /\.test\.tsx?$/.test(path);

/** The path under apps/web/src of a file, or undefined when it is not in the web app's sources. */
function underWebSrc(file) {
  const marker = `${sep}apps${sep}web${sep}src${sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : { root: file.slice(0, at + marker.length), path: file.slice(at + marker.length) };
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Import another feature only through its public index; shared code imports no feature." },
    messages: {
      deep: '{{target}} is inside the {{feature}} feature: import it from features/{{feature}}/index.ts, its public index.',
      shared: '{{importer}} is shared code and may not import the {{feature}} feature ({{target}}).',
      shell: '{{importer}} may not import the app shell ({{target}}): features and shared code sit below it.',
    },
    schema: [],
  },
  create(context) {
    const file = underWebSrc(context.filename);
    if (!file) return {};
    const [area, importerFeature] = file.path.split(sep);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = relative(file.root, resolve(dirname(context.filename), source)).split(sep);
      if (target[0] === 'app' && BELOW_SHELL.has(area) && !isTest(file.path)) {
        context.report({ node, messageId: 'shell', data: { importer: file.path.split(sep).join('/'), target: target.join('/') } });
        return;
      }
      if (target[0] !== 'features' || target.length < 3) return;
      const feature = target[1];
      const shown = target.join('/');
      if (SHARED_DIRS.has(area)) {
        context.report({ node, messageId: 'shared', data: { importer: file.path.split(sep).join('/'), feature, target: shown } });
        return;
      }
      if (area === 'features' && importerFeature === feature) return;
      if (target.length === 3 && PUBLIC_FILES.has(target[2])) return;
      context.report({ node, messageId: 'deep', data: { target: shown, feature } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { 'feature-boundaries': rule } };

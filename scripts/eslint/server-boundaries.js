// The shore server's shape, as an ESLint rule (apps/server/src):
//
// - A module (src/modules/<name>/) imports the core (src/core/) and other modules only through
//   their index.ts, which is the module's plugin and its public surface; the core imports no
//   module (modules sit on the core, never the reverse).
// - Only repo.ts files and core/db touch the database: they alone import drizzle (`drizzle-orm`,
//   `drizzle-orm/...`) and the tables (core/db/schema.ts, core/db/tables/).
// - Only core/ship-link speaks to ship agents. Concretely, outside it nobody imports a file of
//   core/ship-link but its index.ts (the gateway's sockets, connections and relay stay inside),
//   nobody imports the agent link's wire-level parts from @ship-cctv/protocol (the upgrade
//   headers, hello and version negotiation, the frame codec, the message checkers and routers of
//   the whole link), and nobody names the agents' endpoint (PATHS.agentLink). Modules reach a ship
//   by opening a stream of their own kind through the core's link streams.
import { dirname, relative, resolve, sep } from 'node:path';

/** @ship-cctv/protocol exports that are the agent link's wire, not a kind's messages. */
export const AGENT_LINK_WIRE = new Set([
  'AGENT_HEADERS',
  'AGENT_LINK_VERSION',
  'AGENT_LINK_MIN_VERSION',
  'CLOSE_UNSUPPORTED_VERSION',
  'LINK_ACK_VERSION',
  'LINK_ACK_INTERVAL_MS',
  'HelloVersion',
  'agreedVersion',
  'helloProtocol',
  'ControlAgentMessage',
  'ControlAgentMessages',
  'ControlShoreMessage',
  'ControlShoreMessages',
  'AgentMessageSchema',
  'ShoreMessageSchema',
  'checkAgentMessage',
  'checkShoreMessage',
  'isAgentMessage',
  'isShoreMessage',
  'routeOf',
  'withStreamId',
  'encodeStreamFrame',
  'decodeStreamFrame',
  'parseLinkFrame',
  'STREAM_HEADER_BYTES',
]);

/** Where a file is in the server's sources: its path under apps/server/src, split, or undefined. */
function underServerSrc(file) {
  const marker = `${sep}apps${sep}server${sep}src${sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : { root: file.slice(0, at + marker.length), parts: file.slice(at + marker.length).split(sep) };
}

const isRepo = (parts) => parts[parts.length - 1] === 'repo.ts';
const inDb = (parts) => parts[0] === 'core' && parts[1] === 'db';
const isTables = (parts) => inDb(parts) && (parts[2] === 'schema.ts' || parts[2] === 'tables');
const isDrizzle = (source) => source === 'drizzle-orm' || source.startsWith('drizzle-orm/');

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Holds the server's shape: modules on the core, the database in repo.ts, ship agents in core/ship-link." },
    messages: {
      deepModule: '{{target}} is inside the {{module}} module: import it from modules/{{module}}/index.ts, its public surface.',
      coreImportsModule: '{{importer}} is core and may not import a module ({{target}}): modules use the core, not the reverse.',
      outside: '{{importer}} is a module and may import only the core and other modules\' index.ts, not {{target}}.',
      database: '{{importer}} may not touch the database ({{target}}): only repo.ts files and core/db import drizzle and the tables.',
      shipLinkInside: '{{target}} is inside core/ship-link: only it speaks to ship agents; import core/ship-link/index.ts.',
      agentWire: '{{name}} is the agent link\'s wire: only core/ship-link speaks to ship agents.',
      agentEndpoint: 'PATHS.agentLink is the ship agents\' endpoint: only core/ship-link speaks to ship agents.',
    },
    schema: [],
  },
  create(context) {
    const file = underServerSrc(context.filename);
    if (!file) return {};
    const { parts } = file;
    const importer = parts.join('/');
    const inShipLink = parts[0] === 'core' && parts[1] === 'ship-link';
    const check = (node, source, names) => {
      if (typeof source !== 'string') return;
      if (isDrizzle(source)) {
        if (!isRepo(parts) && !inDb(parts)) context.report({ node, messageId: 'database', data: { importer, target: source } });
        return;
      }
      if (source === '@ship-cctv/protocol') {
        if (inShipLink) return;
        for (const name of names) if (AGENT_LINK_WIRE.has(name)) context.report({ node, messageId: 'agentWire', data: { name } });
        return;
      }
      if (!source.startsWith('.')) return;
      const path = relative(file.root, resolve(dirname(context.filename), source));
      if (path.startsWith('..')) return;
      const target = path.split(sep);
      const shown = target.join('/');
      if (isTables(target) && !isRepo(parts) && !inDb(parts)) {
        context.report({ node, messageId: 'database', data: { importer, target: shown } });
        return;
      }
      if (target[0] === 'core' && target[1] === 'ship-link' && !inShipLink && !(target.length === 3 && target[2] === 'index.ts')) {
        context.report({ node, messageId: 'shipLinkInside', data: { target: shown } });
        return;
      }
      if (parts[0] === 'core' && target[0] !== 'core') {
        context.report({ node, messageId: 'coreImportsModule', data: { importer, target: shown } });
        return;
      }
      if (parts[0] !== 'modules') return;
      if (target[0] === 'core') return;
      if (target[0] !== 'modules' || target.length < 3) {
        context.report({ node, messageId: 'outside', data: { importer, target: shown } });
        return;
      }
      if (target[1] === parts[1]) return;
      if (target.length === 3 && target[2] === 'index.ts') return;
      context.report({ node, messageId: 'deepModule', data: { target: shown, module: target[1] } });
    };
    const importedNames = (node) =>
      node.specifiers
        .filter((s) => s.type === 'ImportSpecifier' || s.type === 'ExportSpecifier')
        .map((s) => (s.type === 'ImportSpecifier' ? s.imported : s.local))
        .map((id) => (id.type === 'Identifier' ? id.name : String(id.value)));
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value, importedNames(node)),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value, importedNames(node)),
      ExportAllDeclaration: (node) => check(node.source, node.source.value, []),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value, []),
      MemberExpression: (node) => {
        if (inShipLink) return;
        const { object, property } = node;
        if (object.type === 'Identifier' && object.name === 'PATHS' && !node.computed && property.type === 'Identifier' && property.name === 'agentLink') {
          context.report({ node, messageId: 'agentEndpoint' });
        }
      },
    };
  },
};

export default { rules: { 'module-boundaries': rule } };

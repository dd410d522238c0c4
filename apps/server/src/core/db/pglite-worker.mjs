// The embedded PostgreSQL (PGlite) on a thread of its own. PGlite runs each query synchronously in
// WebAssembly, so on the server's main thread every query would hold the event loop; here it only
// holds this thread. The main thread talks to it through `pglite-thread.ts` with messages
// { id, op, ... } and gets back { id, ok, result } or { id, ok: false, error }.
//
// Plain JavaScript on purpose: a worker thread starts without the TypeScript loader the server,
// tsx and vitest each bring, so this file must load under bare node.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread');
const port = parentPort;

/**
 * The data folder or template, and PGlite's WebAssembly compiled once by the process that starts
 * the thread (absent: PGlite compiles it here).
 * @type {{ dataDir?: string, template?: Uint8Array, pgliteWasmModule?: WebAssembly.Module, initdbWasmModule?: WebAssembly.Module }}
 */
const options = workerData ?? {};

/** Returns a column's text as it is (parsers cannot cross threads; the caller names the types it wants raw). */
const raw = (value) => value;

/**
 * The fields of an error that cross to the main thread: PostgreSQL's (code, detail, constraint,
 * table, …) and the message, so callers can tell a unique violation from any other failure.
 */
function describeError(err) {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out = { name: err.name, message: err.message };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function') continue;
    if (typeof value === 'object' && value !== null) continue;
    out[key] = value;
  }
  return out;
}

/**
 * The template as the Blob PGlite loads a data folder from, handing its bytes over at once: Node's
 * own Blob.arrayBuffer() gathers a large blob in small pieces, about half a second of CPU for a
 * 42 MB template, at every start of a database from one. Its other methods read the same bytes.
 */
class TemplateBlob extends Blob {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    super([bytes]);
    this.bytes = bytes;
  }

  async arrayBuffer() {
    const { buffer, byteOffset, byteLength } = this.bytes;
    return byteOffset === 0 && byteLength === buffer.byteLength ? buffer : buffer.slice(byteOffset, byteOffset + byteLength);
  }
}

const pg = new PGlite({
  dataDir: options.dataDir,
  loadDataDir: options.template ? new TemplateBlob(options.template) : undefined,
  pgliteWasmModule: options.pgliteWasmModule,
  initdbWasmModule: options.initdbWasmModule,
});

/**
 * Open transactions by id. Each holds PGlite's transaction lock until the main thread commits or
 * rolls it back, so queries outside it wait, as they would on one PGlite in one thread.
 * @type {Map<number, { tx: import('@electric-sql/pglite').Transaction | undefined, finish: (commit: boolean) => void, done: Promise<void> }>}
 */
const transactions = new Map();
let nextTransaction = 1;
/** What a rollback throws into the transaction's callback so PGlite rolls back. */
const ROLLBACK = Symbol('rollback');

function begin() {
  return new Promise((resolve, reject) => {
    const id = nextTransaction++;
    const open = { tx: undefined, finish: () => undefined, done: Promise.resolve() };
    const decided = new Promise((commit, rollback) => {
      open.finish = (ok) => (ok ? commit() : rollback(ROLLBACK));
    });
    open.done = pg
      .transaction(async (tx) => {
        open.tx = tx;
        transactions.set(id, open);
        resolve(id);
        await decided;
      })
      .then(
        () => undefined,
        (err) => {
          if (err === ROLLBACK) return;
          // BEGIN itself failed: nothing was opened.
          if (!open.tx) reject(err);
          throw err;
        },
      )
      .finally(() => transactions.delete(id));
    // A failure to begin is reported by reject above, one to commit by the commit request.
    open.done.catch(() => undefined);
  });
}

async function end(id, commit) {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  open.finish(commit);
  await open.done;
}

async function query(message) {
  const target = message.tx === undefined ? pg : transactions.get(message.tx)?.tx;
  if (!target) throw new Error(`no open transaction ${message.tx}`);
  const parsers = {};
  for (const type of message.rawTypes ?? []) parsers[type] = raw;
  const result = await target.query(message.sql, message.params ?? [], { rowMode: message.rowMode ?? 'object', parsers });
  return { rows: result.rows, affectedRows: result.affectedRows, fields: result.fields };
}

async function handle(message) {
  switch (message.op) {
    case 'query':
      return await query(message);
    case 'begin':
      return await begin();
    case 'commit':
      return await end(message.tx, true);
    case 'rollback':
      return await end(message.tx, false);
    case 'dump': {
      // Everything written out to the data files first, so that a copy starts from them instead
      // of replaying the write-ahead log.
      await pg.exec('checkpoint');
      const file = await pg.dumpDataDir('none');
      return new Uint8Array(await file.arrayBuffer());
    }
    case 'close':
      await pg.close();
      return undefined;
    default:
      throw new Error(`unknown request ${String(message.op)}`);
  }
}

port.on('message', (message) => {
  handle(message).then(
    (result) => port.postMessage({ id: message.id, ok: true, result }, result instanceof Uint8Array ? [result.buffer] : []),
    (err) => port.postMessage({ id: message.id, ok: false, error: describeError(err) }),
  );
});

pg.waitReady.then(
  () => port.postMessage({ id: 0, ok: true }),
  (err) => port.postMessage({ id: 0, ok: false, error: describeError(err) }),
);

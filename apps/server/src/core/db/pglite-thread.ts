import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type ResourceLimits, Worker } from 'node:worker_threads';

/**
 * Whose work a query is (a session, a client address; absent: the server's own). The embedded
 * database runs one query at a time, so its queue is shared by everyone: queries wait in one lane
 * per name and the lanes take turns, so that a burst from one user queues behind itself and another
 * user's query waits for about one query, not for the whole burst. Set around a request's handling.
 */
export const databaseLane = new AsyncLocalStorage<string>();

/** Queries handed to the database thread at once: one running, one ready to start right after it. */
const IN_FLIGHT = 2;

/** Where the embedded database keeps its files; absent means in memory. */
export interface PgliteThreadOptions {
  dataDir?: string | undefined;
  /** A data folder dumped by `dump()` to start from instead of an empty cluster (in memory only). */
  template?: Uint8Array | undefined;
  /** Limits for the thread's JavaScript heap (PGlite's WebAssembly memory is outside them). */
  resourceLimits?: ResourceLimits | undefined;
}

export interface QueryOptions {
  rowMode?: 'array' | 'object' | undefined;
  /**
   * Column types to return as PostgreSQL's text. Parsers are functions and cannot cross threads:
   * the types named here get the identity parser in the database thread, which is what drizzle's
   * parsers are (timestamps, dates and intervals stay strings); the function values are not called.
   */
  parsers?: Record<number, unknown> | undefined;
}

export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  affectedRows?: number | undefined;
  fields: { name: string; dataTypeID: number }[];
}

export interface PgliteThreadTransaction {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  readonly closed: boolean;
}

/** An error the database answered with: PostgreSQL's fields (`code`, `detail`, `constraint`, …) kept. */
export class EmbeddedDatabaseError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
  column?: string;
  severity?: string;
}

type Request =
  | { op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; rawTypes: number[]; tx?: number | undefined }
  | { op: 'begin' }
  | { op: 'commit' | 'rollback'; tx: number }
  | { op: 'dump' }
  | { op: 'close' };

type Reply = { id: number; ok: true; result?: unknown } | { id: number; ok: false; error: { name: string; message: string } & Record<string, unknown> };

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** Counted against IN_FLIGHT (queued work, not a step of an open transaction). */
  queued: boolean;
}

interface Waiting {
  body: Request;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

function toError(described: { name: string; message: string } & Record<string, unknown>): Error {
  const err = new EmbeddedDatabaseError(described.message);
  Object.assign(err, described);
  return err;
}

const workerScript = new URL('./pglite-worker.mjs', import.meta.url);

/** The part of the WebAssembly global used here (the server is typed without the DOM's library). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledModule> };
/** A compiled WebAssembly.Module: opaque here, handed to the thread as it is. */
type CompiledModule = object;

interface CompiledPglite {
  pglite: CompiledModule;
  initdb: CompiledModule;
}

let compiled: Promise<CompiledPglite> | undefined;

/**
 * PGlite's WebAssembly (the database and its initdb), compiled once per process and handed to
 * every database thread it starts: compiled by each new thread it cost about 2 s of CPU, for every
 * database a test process opens (the server opens one; a test file one or several).
 */
function compiledPglite(): Promise<CompiledPglite> {
  if (!compiled) {
    const require = createRequire(import.meta.url);
    const compile = async (file: string) => WebAssembly.compile(await readFile(require.resolve(`@electric-sql/pglite/${file}`)));
    const pending = Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]).then(([pglite, initdb]) => ({ pglite, initdb }));
    pending.catch(() => {
      if (compiled === pending) compiled = undefined;
    });
    compiled = pending;
  }
  return compiled;
}

/**
 * The embedded PostgreSQL (PGlite) running on a worker thread, with the part of PGlite's client
 * interface drizzle's pglite driver uses (`query`, `transaction`) plus `dump` and `close`. PGlite
 * runs each query synchronously; on its own thread a long query no longer holds the server's event
 * loop. It still runs one at a time: queries wait in lanes (`databaseLane`) that take turns, and
 * while a transaction is open the queries outside it wait for it to end.
 */
export class PgliteThread {
  private readonly pending = new Map<number, Pending>();
  /** Requests not yet handed to the thread, per lane; the Map's order is the lanes' turn order. */
  private readonly lanes = new Map<string, Waiting[]>();
  private inFlight = 0;
  private nextId = 1;
  /** Set once the thread is gone: every request after that fails with it. */
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (err) => this.fail(new Error(`the embedded database's thread failed: ${err.message}`, { cause: err })));
    worker.on('exit', (code) => this.fail(new Error(`the embedded database's thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and waits until the database is ready. */
  static async open(opts: PgliteThreadOptions = {}): Promise<PgliteThread> {
    const wasm = await compiledPglite();
    const worker = new Worker(workerScript, {
      workerData: { dataDir: opts.dataDir, template: opts.template, pgliteWasmModule: wasm.pglite, initdbWasmModule: wasm.initdb },
      // The worker is plain JavaScript: none of the parent's loaders (tsx, vitest's) are needed.
      execArgv: [],
      resourceLimits: opts.resourceLimits,
    });
    const thread = new PgliteThread(worker);
    // Reply 0 is the database's start; the thread keeps the process alive only while asked something.
    try {
      await new Promise<unknown>((resolve, reject) => thread.track(0, { resolve, reject, queued: false }));
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return thread;
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<QueryResult<T>> {
    const rawTypes = Object.keys(options.parsers ?? {}).map(Number);
    const body: Request = { op: 'query', sql, params, rowMode: options.rowMode ?? 'object', rawTypes, tx };
    // A step of an open transaction goes straight through: the transaction holds the database
    // until it ends, so making it wait its turn could only wait for itself.
    return (tx === undefined ? this.enqueue(body) : this.request(body)) as Promise<QueryResult<T>>;
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws (and the
   * error thrown again). Savepoints inside it are plain queries on `tx`.
   */
  async transaction<T>(fn: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T> {
    const id = (await this.enqueue({ op: 'begin' })) as number;
    let closed = false;
    const tx: PgliteThreadTransaction = {
      query: (sql, params, options) => (closed ? Promise.reject(new Error('the transaction is closed')) : this.query(sql, params, options, id)),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      closed = true;
      // The callback's error is the one to report; a thread that died meanwhile rolled back anyway.
      await this.request({ op: 'rollback', tx: id }).catch(() => undefined);
      throw err;
    }
    closed = true;
    await this.request({ op: 'commit', tx: id });
    return result;
  }

  /** The whole data folder as an uncompressed tar, for `PgliteThreadOptions.template`. */
  async dump(): Promise<Uint8Array> {
    return (await this.request({ op: 'dump' })) as Uint8Array;
  }

  /** Closes the database and ends the thread; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.failure) await this.request({ op: 'close' }).catch(() => undefined);
      await this.worker.terminate();
    })();
    return this.closing;
  }

  /** Sends at once. */
  private request(body: Request): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.send(body, { resolve, reject, queued: false }));
  }

  /** Sends when the caller's lane has its turn. */
  private enqueue(body: Request): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const lane = databaseLane.getStore() ?? '';
    return new Promise((resolve, reject) => {
      const waiting = this.lanes.get(lane);
      if (waiting) waiting.push({ body, resolve, reject });
      else this.lanes.set(lane, [{ body, resolve, reject }]);
      this.pump();
    });
  }

  /** Hands queued requests to the thread while fewer than IN_FLIGHT are there, one lane after another. */
  private pump(): void {
    while (this.inFlight < IN_FLIGHT && !this.failure) {
      const next = this.lanes.entries().next();
      if (next.done) return;
      const [lane, waiting] = next.value;
      const first = waiting.shift();
      // Deleted and set again: the lane goes to the back of the turn order.
      this.lanes.delete(lane);
      if (waiting.length > 0) this.lanes.set(lane, waiting);
      if (!first) continue;
      this.inFlight++;
      this.send(first.body, { resolve: first.resolve, reject: first.reject, queued: true });
    }
  }

  private send(body: Request, pending: Pending): void {
    const id = this.nextId++;
    this.track(id, pending);
    this.worker.postMessage({ id, ...body });
  }

  private track(id: number, pending: Pending): void {
    if (this.pending.size === 0) this.worker.ref();
    this.pending.set(id, pending);
  }

  private settle(reply: Reply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (pending.queued) this.inFlight--;
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(toError(reply.error));
    this.pump();
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(err: Error): void {
    this.failure ??= this.closing ? new Error('the embedded database is closed') : err;
    const waiting = [...this.pending.values(), ...[...this.lanes.values()].flat()];
    this.pending.clear();
    this.lanes.clear();
    for (const p of waiting) p.reject(this.failure);
  }
}

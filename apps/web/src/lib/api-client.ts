import { CODES, COOKIES, type ErrorReason, LIMITS, PATHS, TOKEN_HEADER, type EnvelopeOf, isErrorReason } from '@ship-cctv/protocol';
import { deleteCookie, readCookie } from './cookies.ts';

/**
 * Where a failure came from, so a view can word it:
 * - `envelope`: the server answered `{code, message}` with a failure code (code is that code);
 * - `http`: an HTTP failure without an envelope, e.g. from a proxy or gateway (code is the status);
 * - `network`: no answer at all (code 0);
 * - `timeout`: no answer within the time-out (code 0);
 * - `malformed`: a success status whose body is not an envelope (code is the status).
 */
export type ApiErrorKind = 'envelope' | 'http' | 'network' | 'timeout' | 'malformed';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly kind: ApiErrorKind;
  /** HTTP status, when there was an answer. */
  readonly status: number | undefined;
  /**
   * Why, in the server's words a view can word itself (the envelope's `reason`: the ship is
   * offline, did not answer, …); undefined when the server gave none. The message is for people.
   */
  readonly reason: ErrorReason | undefined;

  constructor(kind: ApiErrorKind, code: number, message: string, status?: number, reason?: ErrorReason) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.status = status;
    this.reason = reason;
  }

  /** The server could not be reached or did not answer for itself. */
  get unreachable(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || this.kind === 'http';
  }
}

export interface ApiClientOptions {
  /** Prefix of every path, e.g. `/api/v1`. */
  baseUrl: string;
  timeoutMs: number;
  /** Defaults to the global fetch, looked up per call (tests stub it). */
  fetch?: typeof fetch;
  /** Defaults to the newOrgToken cookie. */
  getToken?: () => string | undefined;
  /**
   * Words a 429 over a user's or a ship's limit (the answer's X-Limit-Scope and Retry-After) in the
   * page's language; unset keeps the server's text.
   */
  describeTooMany?: (scope: 'user' | 'ship', retryAfterSeconds: number) => string;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Calls made without a session (sign-in): their 401 means wrong credentials, not an ended
   * session, so it must not sign the user out.
   */
  sessionless?: boolean;
  /**
   * The path is from the server's root, not under `baseUrl` (spec §7 has calls under
   * /cctvv3-server/…). Same token, time-out, envelope and 401/402 handling.
   */
  fromRoot?: boolean;
}

export type SessionEndedListener = (error: ApiError) => void;

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  del<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  configure(options: Partial<ApiClientOptions>): void;
  /** Called once per failure with code 401 or 402 (spec §8); answers an unsubscribe function. */
  onSessionEnded(listener: SessionEndedListener): () => void;
}

function isEnvelope(value: unknown): value is EnvelopeOf<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'number' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** The scheme and host of an absolute base URL; '' for a path like `/api/v1` (same origin). */
function originOf(baseUrl: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/]+/i.exec(baseUrl)?.[0] ?? '';
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions['query'], fromRoot = false): string {
  const prefix = fromRoot ? originOf(baseUrl) : baseUrl.replace(/\/+$/, '');
  let url = prefix + (path.startsWith('/') ? path : `/${path}`);
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

/** The page-language text of a 429 that names whose limit it hit; undefined for any other answer. */
function tooManyText(res: Response, code: number, describe: ApiClientOptions['describeTooMany']): string | undefined {
  const scope = res.headers.get('x-limit-scope');
  if (code !== CODES.tooMany || !describe || (scope !== 'user' && scope !== 'ship')) return undefined;
  const seconds = Number(res.headers.get('retry-after'));
  return describe(scope, Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1);
}

export function createApiClient(initial: ApiClientOptions): ApiClient {
  let options = { ...initial };
  const listeners = new Set<SessionEndedListener>();

  function sessionEnded(error: ApiError): void {
    deleteCookie(COOKIES.token);
    for (const listener of listeners) listener(error);
  }

  async function request<T>(method: string, path: string, req: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = (options.getToken ?? (() => readCookie(COOKIES.token)))();
    if (token) headers[TOKEN_HEADER] = token;
    let body: string | undefined;
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }

    // Own controller rather than AbortSignal.timeout, to tell our time-out from the caller's abort.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const onCallerAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      const doFetch = options.fetch ?? globalThis.fetch;
      let res: Response;
      let text: string;
      try {
        res = await doFetch(buildUrl(options.baseUrl, path, req.query, req.fromRoot), {
          method,
          headers,
          body,
          signal: controller.signal,
          credentials: 'same-origin',
        });
        text = await res.text();
      } catch (err) {
        if (timedOut) throw new ApiError('timeout', 0, `No answer within ${options.timeoutMs} ms`);
        if (req.signal?.aborted) throw err; // the caller cancelled: not an error to report
        throw new ApiError('network', 0, err instanceof Error ? err.message : String(err));
      }

      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }

      let error: ApiError;
      if (isEnvelope(parsed)) {
        if (res.ok && parsed.code === CODES.ok) return parsed.data as T;
        const reason = (parsed as { reason?: unknown }).reason;
        error = new ApiError('envelope', parsed.code, tooManyText(res, parsed.code, options.describeTooMany) ?? parsed.message, res.status, isErrorReason(reason) ? reason : undefined);
      } else if (!res.ok) {
        error = new ApiError('http', res.status, res.statusText || `HTTP ${res.status}`, res.status);
      } else {
        throw new ApiError('malformed', res.status, 'The answer is not a {code, message, data} envelope', res.status);
      }

      const sessionGone =
        error.code === CODES.unauthorized ||
        error.code === CODES.displaced ||
        error.status === CODES.unauthorized ||
        error.status === CODES.displaced;
      if (sessionGone && !req.sessionless) sessionEnded(error);
      throw error;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    del: (path, opts) => request('DELETE', path, opts),
    configure(next) {
      options = { ...options, ...next };
    },
    onSessionEnded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The one client of the app; main.tsx configures it from the runtime config before first render. */
export const apiClient = createApiClient({ baseUrl: PATHS.apiBase, timeoutMs: LIMITS.httpTimeoutMs });

import { type AgentMessageOf, CODES, type LinkKind, type ShipFailure, type ShoreMessageOf } from '@ship-cctv/protocol';
import { ApiError } from '../http/envelope.ts';
import type { LinkStream } from './gateway.ts';
import type { LinkStreams } from './link-streams.ts';

/**
 * The HTTP status of each way asking a ship can fail. Offline, late, busy and refusing ships are
 * 503 (worth asking again later); an agent that does not handle the kind is 409 (it will not until
 * it is upgraded); a thing the ship does not have is 404.
 */
export const SHIP_FAILURE_STATUS: Readonly<Record<ShipFailure, number>> = {
  offline: CODES.unavailable,
  timeout: CODES.unavailable,
  busy: CODES.unavailable,
  refused: CODES.unavailable,
  unsupported: CODES.conflict,
  notFound: CODES.notFound,
};

/** Asking a ship failed: answered with the status of its reason and the reason in the error envelope. */
export class ShipAskError extends ApiError {
  declare readonly reason: ShipFailure;
  constructor(reason: ShipFailure, message: string) {
    super(SHIP_FAILURE_STATUS[reason], message, reason);
    this.name = 'ShipAskError';
  }
}

/** What ask() says when it gives up by itself (the ship's own refusals are worded by the feature that asked). */
export const shipFailureMessage = {
  offline: (detail: string) => `the ship is offline: ${detail}`,
  lost: (detail: string) => `the ship went offline before answering (${detail})`,
  timeout: (timeoutMs: number) => `the ship did not answer within ${Number((timeoutMs / 1000).toFixed(1))} s`,
};

/** How the feature that asked settles the ask from what the ship sends. */
export interface Reply<T> {
  /** The ship's answer: the ask resolves with it. */
  done(value: T): void;
  /** The ship could not (its `*.failed` answer): the ask fails with this reason. */
  fail(reason: ShipFailure, message: string): void;
  /** A failure of the feature's own reading of the answer (e.g. PTZ's "not a PTZ camera"). */
  error(err: Error): void;
  /**
   * An answer that will do should time run out or the link go before what is still to follow it
   * (bytes on the stream) arrives; the ask keeps listening until done().
   */
  partial(value: T): void;
}

/** One request to a ship and what makes its answer. */
export interface Question<K extends LinkKind, T> {
  shipId: string;
  kind: K;
  /** The request, naming the stream it is asked on. */
  request(streamId: number): ShoreMessageOf<K>;
  /** Reads one message the ship sends on the stream; one that settles nothing is ignored. */
  answer(msg: AgentMessageOf<K>, reply: Reply<T>): void;
  /** Reads bytes the ship sends on the stream (binary kinds: a list's thumbnails). */
  data?(payload: Uint8Array, reply: Reply<T>): void;
  /** How long the ship has to answer once the request is sent. */
  timeoutMs: number;
  /** Ends the ask with the signal's reason (an Error), e.g. when the server shuts down. */
  signal?: AbortSignal | undefined;
}

/** A request on its way: its answer settles later. */
export interface Asked<T> {
  readonly streamId: number;
  readonly answer: Promise<T>;
}

const aborted = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new ApiError(CODES.unavailable, 'the request to the ship was cancelled'));

/**
 * Asks a ship once and waits for its answer: opens a stream of the question's kind on the ship's
 * link (here, or relayed through the instance that holds it — the same failures either way), sends
 * the request, and settles with the answer or a ShipAskError: `offline` (no link, or it went
 * before the answer), `unsupported` (the agent does not handle the kind), `timeout`, or what the
 * feature made of the ship's refusal (`refused`, `busy`, `notFound`). The stream is closed when
 * the ask settles, so a late answer is dropped.
 */
export async function ask<K extends LinkKind, T>(streams: LinkStreams, q: Question<K, T>): Promise<T> {
  return (await startAsk(streams, q)).answer;
}

/**
 * ask() for a caller that answers before the ship does (snapshot: the picture's id now, whether
 * the ship took it later): resolves once the request is on its way, and fails at once (offline,
 * unsupported) when it cannot be sent.
 */
export async function startAsk<K extends LinkKind, T>(streams: LinkStreams, q: Question<K, T>): Promise<Asked<T>> {
  const { signal } = q;
  if (signal?.aborted) throw aborted(signal);
  let resolve: (value: T) => void = () => undefined;
  let reject: (err: Error) => void = () => undefined;
  const answer = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  let settled = false;
  /** The stream and the answer's timer, once there are: settling ends both. */
  const held: { stream?: LinkStream<K>; timer?: NodeJS.Timeout } = {};
  let partial: { value: T } | undefined;
  const onAbort = () => settle(signal ? aborted(signal) : new Error('aborted'));
  function settle(err: Error | undefined, value?: T): void {
    if (settled) return;
    settled = true;
    clearTimeout(held.timer);
    signal?.removeEventListener('abort', onAbort);
    held.stream?.close();
    if (err) reject(err);
    else resolve(value as T);
  }
  /** Time ran out or the link went: what came so far, if it will do, else the failure. */
  const giveUp = (failure: ShipAskError) => (partial ? settle(undefined, partial.value) : settle(failure));
  const reply: Reply<T> = {
    done: (value) => settle(undefined, value),
    fail: (reason, message) => settle(new ShipAskError(reason, message)),
    error: (err) => settle(err),
    partial: (value) => {
      partial = { value };
    },
  };
  const { data } = q;
  const opened = await streams.openStream(q.shipId, q.kind, {
    message: (msg) => {
      if (!settled) q.answer(msg, reply);
    },
    ...(data ? { data: (payload: Uint8Array) => (settled ? undefined : data.call(q, payload, reply)) } : {}),
    closed: (why) => giveUp(new ShipAskError('offline', shipFailureMessage.lost(why))),
  });
  if (!opened.ok) throw new ShipAskError(opened.reason, opened.reason === 'offline' ? shipFailureMessage.offline(opened.message) : opened.message);
  const { stream } = opened;
  held.stream = stream;
  if (signal?.aborted) {
    stream.close();
    throw aborted(signal);
  }
  // The link went between the open and now (a relayed stream): the answer has failed already.
  if (settled) {
    stream.close();
    return { streamId: stream.id, answer };
  }
  signal?.addEventListener('abort', onAbort, { once: true });
  // Set once the stream is open (a refused open needs none); the ship's answer can only come later.
  held.timer = setTimeout(() => giveUp(new ShipAskError('timeout', shipFailureMessage.timeout(q.timeoutMs))), q.timeoutMs);
  held.timer.unref();
  stream.send(q.request(stream.id));
  return { streamId: stream.id, answer };
}

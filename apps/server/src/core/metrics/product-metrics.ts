import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The product's own metric families that code elsewhere counts into (the plugins that own the
 * events call them). Gauges read from a service at each scrape are registered by the module that
 * owns the service (live, playback, status, the bus).
 */
export interface ProductCounters {
  /** Each automatic change of a ship's live definition by the uplink controller. */
  definitionSwitches: Counter<'direction'>;
  /** Shore recorder segments finished on disk, or given up. */
  recorderSegments: Counter<'result'>;
  /** `error` messages sent on media sockets (live and ship-end playback), by their code. */
  mediaSocketErrors: Counter<'code'>;
  /** Refused sign-ins, by reason (wrong credentials, throttled, bad request). */
  signInFailures: Counter<'reason'>;
  /** What the ship reports waiting in its uplink's send queue, ms. */
  uplinkQueueMs: Gauge<'ship'>;
}

export function registerProductCounters(registry: Registry): ProductCounters {
  const registers = [registry];
  const counters: ProductCounters = {
    definitionSwitches: new Counter({
      name: 'shipcctv_definition_switches_total',
      help: "Automatic changes of a ship's live definition by the uplink controller (degrade: to the lowest, restore: back).",
      labelNames: ['direction'],
      registers,
    }),
    recorderSegments: new Counter({
      name: 'shipcctv_recorder_segments_total',
      help: 'Shore recorder segments, by result: written (finished on disk) or failed (a write or finish failed).',
      labelNames: ['result'],
      registers,
    }),
    mediaSocketErrors: new Counter({
      name: 'shipcctv_media_socket_errors_total',
      help: 'Error messages sent to viewers on media sockets, by code.',
      labelNames: ['code'],
      registers,
    }),
    signInFailures: new Counter({
      name: 'shipcctv_signin_failures_total',
      help: 'Refused sign-ins, by reason: wrong_credentials, throttled, bad_request, other.',
      labelNames: ['reason'],
      registers,
    }),
    uplinkQueueMs: new Gauge({
      name: 'shipcctv_uplink_queue_ms',
      help: "The ship's last report of what waits in its uplink send queue, in ms (connected ships of this instance).",
      labelNames: ['ship'],
      registers,
    }),
  };
  // Known series start at zero, so a dashboard's rate() has them from the first scrape.
  for (const direction of ['degrade', 'restore']) counters.definitionSwitches.inc({ direction }, 0);
  for (const result of ['written', 'failed']) counters.recorderSegments.inc({ result }, 0);
  for (const reason of ['wrong_credentials', 'throttled', 'bad_request']) counters.signInFailures.inc({ reason }, 0);
  return counters;
}

/** The reason label of a refused sign-in, from the answer's status. */
export function signInFailureReason(status: number): string {
  if (status === 401) return 'wrong_credentials';
  if (status === 429) return 'throttled';
  if (status === 400) return 'bad_request';
  return 'other';
}

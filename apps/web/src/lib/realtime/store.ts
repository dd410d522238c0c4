import { reduceMessage } from './reduce.ts';

/** The part of a @stomp/stompjs Client the store uses, so tests can hand it a fake. */
export interface StompSubscriber {
  readonly connected: boolean;
  subscribe(destination: string, callback: (message: { body: string }) => void): { unsubscribe(): void };
}

type Listener = () => void;

interface Entry {
  value: unknown;
  listeners: Set<Listener>;
  /** Live STOMP subscription, or null while not connected. */
  subscription: { unsubscribe(): void } | null;
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Destination → latest value, outside React (read through useSyncExternalStore). A destination is
 * subscribed on STOMP when its first listener arrives and unsubscribed after its last one leaves;
 * all live destinations are subscribed again after a reconnect (the server answers a new
 * subscription with the current state, so values catch up at once).
 */
export class DestinationStore {
  private readonly entries = new Map<string, Entry>();
  private client: StompSubscriber | null = null;

  /** Called by the connection once STOMP is connected (first time and after every reconnect). */
  connected(client: StompSubscriber): void {
    this.client = client;
    for (const [destination, entry] of this.entries) {
      entry.subscription = null; // any old one died with the previous socket
      if (entry.listeners.size > 0) this.open(destination, entry);
    }
  }

  /** Called when the socket closes: subscriptions died with it, values stay until fresh ones arrive. */
  disconnected(): void {
    this.client = null;
    for (const entry of this.entries.values()) entry.subscription = null;
  }

  /** Sign-out: forget every value and subscription; views still mounted see `undefined`. */
  reset(): void {
    for (const entry of this.entries.values()) {
      if (this.client?.connected) entry.subscription?.unsubscribe();
      entry.subscription = null;
    }
    this.client = null;
    const listeners = [...this.entries.values()].flatMap((entry) => [...entry.listeners]);
    // Listeners stay registered: views that are still mounted keep their interest for the next session.
    for (const entry of this.entries.values()) entry.value = undefined;
    for (const listener of listeners) listener();
  }

  getSnapshot(destination: string): unknown {
    return this.entries.get(destination)?.value;
  }

  /** Adds a listener; answers the function that removes it. */
  subscribe(destination: string, listener: Listener): () => void {
    let entry = this.entries.get(destination);
    if (!entry) {
      entry = { value: undefined, listeners: new Set(), subscription: null };
      this.entries.set(destination, entry);
    }
    const wasIdle = entry.listeners.size === 0;
    entry.listeners.add(listener);
    if (wasIdle) this.open(destination, entry);
    const current = entry;
    return () => {
      if (!current.listeners.delete(listener) || current.listeners.size > 0) return;
      if (this.client?.connected) current.subscription?.unsubscribe();
      current.subscription = null;
      // Dropped so that a later first listener does not see a value that went stale unsubscribed.
      if (this.entries.get(destination) === current) this.entries.delete(destination);
    };
  }

  /** Destinations with a live STOMP subscription (for the statistics and tests). */
  activeDestinations(): string[] {
    return [...this.entries].filter(([, entry]) => entry.subscription).map(([destination]) => destination);
  }

  private open(destination: string, entry: Entry): void {
    if (entry.subscription || !this.client?.connected) return;
    entry.subscription = this.client.subscribe(destination, (message) => {
      entry.value = reduceMessage(destination, entry.value, parseBody(message.body));
      for (const listener of [...entry.listeners]) listener();
    });
  }
}

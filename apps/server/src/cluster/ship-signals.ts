import { Redis } from 'ioredis';

/**
 * A word about one ship for whichever instance holds its agent link: "its snapshot tasks changed,
 * hand them over". Only the holder has the link, so only it acts — once in the cluster, wherever
 * the change was made.
 */
export interface ShipSignals {
  /** Tells every instance (this one included) that `topic` happened to `shipId`. */
  send(topic: string, shipId: string): Promise<void>;
  /** Runs `handler` for each signal of `topic` (errors are the handler's to log). */
  on(topic: string, handler: (shipId: string) => Promise<void>): void;
  close(): Promise<void>;
}

class Handlers {
  private readonly byTopic = new Map<string, ((shipId: string) => Promise<void>)[]>();

  add(topic: string, handler: (shipId: string) => Promise<void>): void {
    this.byTopic.set(topic, [...(this.byTopic.get(topic) ?? []), handler]);
  }

  async run(topic: string, shipId: string): Promise<void> {
    await Promise.all((this.byTopic.get(topic) ?? []).map((h) => h(shipId)));
  }
}

/** One instance: the signal is handled before send() resolves. */
export class LocalShipSignals implements ShipSignals {
  private readonly handlers = new Handlers();

  send(topic: string, shipId: string): Promise<void> {
    return this.handlers.run(topic, shipId);
  }

  on(topic: string, handler: (shipId: string) => Promise<void>): void {
    this.handlers.add(topic, handler);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Several instances: one Redis pub/sub channel that every instance listens to. */
export class RedisShipSignals implements ShipSignals {
  private readonly handlers = new Handlers();
  private readonly channel: string;

  private constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    prefix: string,
    private readonly onError: (err: Error) => void,
  ) {
    this.channel = `${prefix}ship-signals`;
  }

  static async connect(url: string, prefix = 'shipcctv:', onError: (err: Error) => void = () => undefined): Promise<RedisShipSignals> {
    const cmd = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    cmd.on('error', onError);
    sub.on('error', onError);
    const signals = new RedisShipSignals(cmd, sub, prefix, onError);
    await cmd.connect();
    await sub.connect();
    sub.on('message', (channel: string, message: string) => {
      if (channel === signals.channel) signals.heard(message);
    });
    await sub.subscribe(signals.channel);
    return signals;
  }

  async send(topic: string, shipId: string): Promise<void> {
    await this.cmd.publish(this.channel, JSON.stringify({ topic, shipId }));
  }

  on(topic: string, handler: (shipId: string) => Promise<void>): void {
    this.handlers.add(topic, handler);
  }

  async close(): Promise<void> {
    await this.sub.quit().catch(() => undefined);
    await this.cmd.quit().catch(() => undefined);
  }

  private heard(message: string): void {
    let signal: unknown;
    try {
      signal = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof signal !== 'object' || signal === null) return;
    const { topic, shipId } = signal as Record<string, unknown>;
    if (typeof topic !== 'string' || typeof shipId !== 'string') return;
    this.handlers.run(topic, shipId).catch((err: unknown) => this.onError(err instanceof Error ? err : new Error(String(err))));
  }
}

/** Who holds a ship's talkback. */
export interface TalkHolder {
  /** This talk's own id (a second talk of the same user is another talk). */
  talkId: string;
  userId: string;
  displayName: string;
  cameraId: string;
  since: number;
}

/**
 * The one place that knows who talks to which ship: one talker per ship. In-process here; a store
 * shared by several instances (Redis, with a lease) implements the same two calls.
 */
export interface TalkOccupancy {
  /** Takes the ship's talkback for `holder`; answers whoever holds it already (then nothing changes). */
  claim(shipId: string, holder: TalkHolder): Promise<TalkHolder | undefined>;
  /** Gives it back, if this talk still holds it. */
  release(shipId: string, talkId: string): Promise<void>;
  /**
   * Tells `listener` when a talk of this instance lost its hold (in a shared store, another talk
   * claimed the ship after this one's lease lapsed): that talk must end, since another operator
   * holds the ship now.
   */
  onLost(listener: (shipId: string, talkId: string) => void): void;
  /** Stops keeping claims (the server is closing); claims still held are given back. */
  close(): Promise<void>;
}

export class LocalTalkOccupancy implements TalkOccupancy {
  private readonly holders = new Map<string, TalkHolder>();

  claim(shipId: string, holder: TalkHolder): Promise<TalkHolder | undefined> {
    const current = this.holders.get(shipId);
    if (current) return Promise.resolve(current);
    this.holders.set(shipId, holder);
    return Promise.resolve(undefined);
  }

  release(shipId: string, talkId: string): Promise<void> {
    if (this.holders.get(shipId)?.talkId === talkId) this.holders.delete(shipId);
    return Promise.resolve();
  }

  /** A process's own map cannot lose a claim. */
  onLost(): void {}

  close(): Promise<void> {
    this.holders.clear();
    return Promise.resolve();
  }

  /** The ships talked to now (tests, introspection). */
  get size(): number {
    return this.holders.size;
  }
}

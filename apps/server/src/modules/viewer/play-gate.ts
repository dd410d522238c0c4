/**
 * Lets a user's play requests resolve (access, definition, budget: several database reads each)
 * only a few at a time, across all the user's media sockets, each on a fresh turn of the event
 * loop. The embedded database runs one query at a time: a thousand plays resolved together would
 * queue their reads ahead of everyone else's (while it ran on the main thread they held the event
 * loop for 45 s and every ship's link went silent). Through the gate the reads of one user take
 * turns with everything else.
 */
export class PlayGate {
  private readonly users = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly perUser: number) {}

  async run<T>(user: string, work: () => Promise<T>): Promise<T> {
    let u = this.users.get(user);
    if (!u) {
      u = { running: 0, waiting: [] };
      this.users.set(user, u);
    }
    const slot = u;
    if (slot.running >= this.perUser) await new Promise<void>((resolve) => slot.waiting.push(resolve));
    else slot.running++;
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await work();
    } finally {
      // A waiting request takes the slot over; the last one out forgets the user.
      const next = slot.waiting.shift();
      if (next) next();
      else if (--slot.running === 0) this.users.delete(user);
    }
  }

  /** Users with requests running or waiting (for tests). */
  get busyUsers(): number {
    return this.users.size;
  }
}

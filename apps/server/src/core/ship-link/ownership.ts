import { EventEmitter } from 'node:events';

/** Who holds a ship's agent link now: an instance, and the epoch its claim was given. */
export interface ShipOwner {
  instanceId: string;
  /** Grows with every claim of the ship anywhere in the cluster; a lower one is a stale owner. */
  epoch: number;
}

export interface OwnershipEvents {
  /** This instance claimed the ship and still holds its link (other instances may now reach the ship through it). */
  claimed: [shipId: string, epoch: number];
  /** This instance no longer owns the ship (a newer claim elsewhere, or its lease could not be kept): stop serving it. */
  lost: [shipId: string, epoch: number, why: string];
  /** This instance's claim had lapsed (Redis was away longer than the lease) and was set again at its epoch: no claim came meanwhile. */
  reasserted: [shipId: string, epoch: number];
  /**
   * This instance's lease had lapsed (Redis stalled longer than it, or restarted without its data)
   * and is set again, its claims read back: what it wrote to the shared store may need writing again.
   */
  restored: [];
  /** Another instance claimed the ship (its agent connected there): streams of the ship are to be had through that instance now. */
  claimedElsewhere: [shipId: string, owner: ShipOwner];
}

/**
 * Which instance owns each connected ship. The owner is the instance holding the ship's agent link;
 * a claim gives it an epoch, a newer claim anywhere fences the older owner off (it hears `lost`).
 */
export interface ShipOwnership {
  readonly instanceId: string;
  readonly events: EventEmitter<OwnershipEvents>;
  /** This instance took the ship's agent link: claims the ship (a newer epoch than any before). */
  claim(shipId: string): Promise<ShipOwner>;
  /** This instance let the ship's link go: frees the ship, unless a newer claim took it already. */
  release(shipId: string): Promise<void>;
  /** The ship's owner now, or undefined when no instance holds its link. */
  ownerOf(shipId: string): Promise<ShipOwner | undefined>;
  close(): Promise<void>;
}

/** One instance alone: it owns what it holds; there is no one to fence. */
export class LocalOwnership implements ShipOwnership {
  readonly events = new EventEmitter<OwnershipEvents>();
  private readonly owned = new Map<string, number>();
  private epoch = 0;

  constructor(readonly instanceId: string) {}

  claim(shipId: string): Promise<ShipOwner> {
    this.epoch += 1;
    this.owned.set(shipId, this.epoch);
    return Promise.resolve({ instanceId: this.instanceId, epoch: this.epoch });
  }

  release(shipId: string): Promise<void> {
    this.owned.delete(shipId);
    return Promise.resolve();
  }

  ownerOf(shipId: string): Promise<ShipOwner | undefined> {
    const epoch = this.owned.get(shipId);
    return Promise.resolve(epoch === undefined ? undefined : { instanceId: this.instanceId, epoch });
  }

  close(): Promise<void> {
    this.owned.clear();
    return Promise.resolve();
  }
}

/**
 * The organisation each user last picked, kept in localStorage so a reload (or the next sign-in
 * of the same user in this browser) opens the same organisation. Keyed by user, so another user
 * signing in here never inherits it.
 */
type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

export const ORG_STORAGE_PREFIX = 'ship-cctv.sourceTree.organisation.v1:';

export interface OrgMemory {
  /** The organisation `userId` picked last, or null. */
  get(userId: string | undefined): string | null;
  remember(userId: string | undefined, orgId: string): void;
  subscribe(listener: () => void): () => void;
}

function safeStorage(): StorageLike | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage access throws in some privacy modes; the choice then lasts for this page only.
    return undefined;
  }
}

export function createOrgMemory(storage: StorageLike | undefined = safeStorage()): OrgMemory {
  // What this page knows, so a picker change shows at once even where storage fails.
  const picked = new Map<string, string>();
  const listeners = new Set<() => void>();

  const read = (userId: string): string | null => {
    try {
      const value = storage?.getItem(ORG_STORAGE_PREFIX + userId);
      return value ? value : null;
    } catch {
      return null;
    }
  };

  return {
    get(userId) {
      if (!userId) return null;
      return picked.get(userId) ?? read(userId);
    },
    remember(userId, orgId) {
      if (!userId || picked.get(userId) === orgId) return;
      picked.set(userId, orgId);
      try {
        storage?.setItem(ORG_STORAGE_PREFIX + userId, orgId);
      } catch {
        // Quota or privacy mode: this page still has the choice.
      }
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's one memory of picked organisations. */
export const orgMemory: OrgMemory = createOrgMemory();

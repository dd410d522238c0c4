import { useSyncExternalStore } from 'react';
import type { UserInfo } from '@ship-cctv/protocol';

/**
 * Who is signed in in this page load. `user` set means the token was validated (by sign-in, /jump
 * or the guard), so the guard validates at most once per page load (spec §4).
 */
let user: UserInfo | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of [...listeners]) listener();
}

export const sessionStore = {
  get user(): UserInfo | null {
    return user;
  },
  signedIn(next: UserInfo): void {
    user = next;
    emit();
  },
  clear(): void {
    if (!user) return;
    user = null;
    emit();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSessionUser(): UserInfo | null {
  return useSyncExternalStore(sessionStore.subscribe, () => user, () => user);
}

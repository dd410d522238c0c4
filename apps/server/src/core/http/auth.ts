import type { EventEmitter } from 'node:events';
import type { UserInfo } from '@ship-cctv/protocol';
import type { Access } from '../orgs/access.ts';

/**
 * The signed-in caller of a request or a socket: whose session it is, and what of the organisation
 * tree they may see. The sessions module checks tokens and makes it; the core's sockets (STOMP) and
 * every module's routes read it.
 */
export interface AuthContext extends Access {
  sessionId: string;
  user: UserInfo;
  expiresAt: number;
}

export type SessionEndReason = 'logout' | 'displaced';
export interface SessionEvents {
  ended: [{ sessionId: string; userId: string; reason: SessionEndReason }];
}

/** What signs a connection in: a token's caller (ApiError when refused), and when a session ends. */
export interface SignIn {
  authenticate(token: string | undefined): Promise<AuthContext>;
  readonly events: EventEmitter<SessionEvents>;
}

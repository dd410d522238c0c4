import type { WebSocket } from 'ws';
import type { AuthContext } from '../../core/http/auth.ts';

/** A message that arrived on a media socket before its owner took it. */
export interface EarlyMessage {
  data: Buffer;
  isBinary: boolean;
}

/**
 * Takes a whole media socket whose first command is one of the extension's (talkback). It gets the
 * socket once the session is checked, the parsed first command, and what else arrived meanwhile,
 * in order; from then on the socket is its own — text and binary messages alike.
 */
export type MediaSocketOwner = (socket: WebSocket, auth: AuthContext, first: { type: string } & Record<string, unknown>, rest: EarlyMessage[]) => void;

/**
 * The media socket's extension point: a feature registers the command types that open a socket of
 * its own (talk.start), and the socket whose first command is one of them goes to that feature
 * instead of a live player's session. The live path knows no feature's commands.
 */
export class MediaSocketExtensions {
  private readonly owners = new Map<string, MediaSocketOwner>();

  register(type: string, owner: MediaSocketOwner): void {
    if (this.owners.has(type)) throw new Error(`media socket command ${type} is registered already`);
    this.owners.set(type, owner);
  }

  /** The owner of a socket whose first message is this one, with the command; undefined: a player's socket. */
  ownerOf(first: EarlyMessage): { owner: MediaSocketOwner; command: { type: string } & Record<string, unknown> } | undefined {
    if (first.isBinary || this.owners.size === 0) return undefined;
    let command: unknown;
    try {
      command = JSON.parse(first.data.toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof command !== 'object' || command === null || !('type' in command) || typeof command.type !== 'string') return undefined;
    const owner = this.owners.get(command.type);
    return owner && { owner, command: command as { type: string } & Record<string, unknown> };
  }
}

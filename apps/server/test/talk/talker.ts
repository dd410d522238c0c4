import WebSocket from 'ws';
import { expect } from 'vitest';
import { PATHS, type TalkServerMessage } from '@ship-cctv/protocol';

export const CAMERA = 'S1001-C01-1';

/** A browser's talk socket (tests): a media socket whose first command is talk.start. */
export class Talker {
  readonly messages: TalkServerMessage[] = [];
  closed = false;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.messages.push(JSON.parse(String(data)) as TalkServerMessage);
    });
    ws.on('close', () => (this.closed = true));
  }

  static async start(port: number, token: string, cameraId = CAMERA): Promise<Talker> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`);
    const talker = new Talker(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'talk.start', cameraId, format: 'opus' }));
    return talker;
  }

  async next<T extends TalkServerMessage['type']>(type: T): Promise<Extract<TalkServerMessage, { type: T }>> {
    await expect.poll(() => this.messages.some((m) => m.type === type), { timeout: 10_000 }).toBe(true);
    return this.messages.find((m): m is Extract<TalkServerMessage, { type: T }> => m.type === type) as Extract<TalkServerMessage, { type: T }>;
  }
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, FrameImpl } from '@stomp/stompjs';
import { RealtimeConnection } from './connection.ts';

afterEach(() => vi.restoreAllMocks());

/** Starts a connection whose STOMP client is captured instead of dialling out. */
function started() {
  const clients: Client[] = [];
  vi.spyOn(Client.prototype, 'activate').mockImplementation(function (this: Client) {
    clients.push(this);
  });
  vi.spyOn(Client.prototype, 'deactivate').mockResolvedValue(undefined);
  const connection = new RealtimeConnection();
  connection.start('/ws');
  const ended = vi.fn();
  connection.onSessionEnded(ended);
  const client = clients[0];
  if (!client) throw new Error('no client');
  return { connection, client, ended };
}

const errorFrame = (code: number) => new FrameImpl({ command: 'ERROR', headers: {}, body: JSON.stringify({ code, message: 'session ended', data: null }) });

describe('RealtimeConnection', () => {
  it('reports a STOMP ERROR 401 or 402 as the session ending', () => {
    const { client, ended } = started();
    client.onStompError(errorFrame(402));
    expect(ended).toHaveBeenCalledWith(402);
  });

  it('does not report the ERROR a stopped client reads (its own sign-out)', () => {
    const { connection, client, ended } = started();
    connection.stop();
    client.onStompError(errorFrame(401));
    expect(ended).not.toHaveBeenCalled();
  });
});

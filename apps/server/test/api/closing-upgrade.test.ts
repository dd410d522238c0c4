import { connect } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import websocketPlugin from '../../src/core/http/websocket.ts';

const UPGRADE = [
  'GET /ws HTTP/1.1',
  'Host: 127.0.0.1',
  'Upgrade: websocket',
  'Connection: Upgrade',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version: 13',
  '',
  '',
].join('\r\n');

/**
 * A ship's agent redials as soon as a stopping shore closes its link. Its upgrade, arriving while
 * the server's close hooks still run, is answered 503 without reaching a route; the server must end
 * that socket itself, or its close waits for the connection for ever.
 */
describe('an upgrade that reaches a stopping server', () => {
  it('is answered 503 and its socket ended, and the server finishes closing', async () => {
    const app = Fastify();
    await app.register(websocketPlugin);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let closing = () => {};
    const inClose = new Promise<void>((resolve) => (closing = resolve));
    // Stands for the close hooks that take a while (database, recorder): the window the redial lands in.
    app.addHook('preClose', async () => {
      closing();
      await held;
    });
    app.get('/ws', { websocket: true }, (socket) => socket.send('hello'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');

    const closed = app.close();
    await inClose;
    const client = connect(address.port, '127.0.0.1');
    let answer = '';
    client.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    const ended = new Promise<void>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error(`the server did not end the socket within 5 s; it answered ${JSON.stringify(answer.slice(0, 40))}`)), 5_000);
      client.once('end', () => {
        clearTimeout(late);
        resolve();
      });
    });
    client.write(UPGRADE);
    // The server, not the client, ends the socket (the client never would: it waits for an answer).
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);

    release();
    let done = false;
    await Promise.race([closed.then(() => (done = true)), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    expect(done).toBe(true);
    client.destroy();
  });
});

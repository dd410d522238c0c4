import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, PATHS } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';

/** What a database fault carries: SQL with column names, and a session id. */
const FAULT = 'Failed query: select "password_hash", "session_id" from "sessions" where "id" = $1 params: s-5f1e2d';

describe('internal errors stay on the server', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  beforeAll(async () => {
    t = await build();
    token = (await logon(t.app, 'demo')).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    // The database going away mid-check, as PostgreSQL stopping does.
    t.app.sessions.authenticate = async () => {
      throw new Error(FAULT);
    };
  });
  afterAll(async () => t?.close());

  it('the media socket answers a code and a generic text, not the SQL', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.media}?token=${encodeURIComponent(token)}`);
    const messages: string[] = [];
    ws.on('message', (data) => messages.push(String(data)));
    const closed = await new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    expect(closed).toBe(1011);
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0] ?? '')).toEqual({ type: 'error', code: 'internal', message: MESSAGES.internal });
    expect(messages.join('')).not.toMatch(/password_hash|s-5f1e2d|select/);
  });

  it('REST answers 500 with the generic envelope', async () => {
    const res = await t.app.inject({ url: '/api/v1/cctv/heartbeat', headers: { 'cas-jwt': token } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, message: MESSAGES.internal, data: null });
  });

  it('STOMP answers an ERROR frame without the fault', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.stomp}`, ['v12.stomp']);
    await new Promise((resolve) => ws.on('open', resolve));
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(String(data)));
    ws.send(`CONNECT\naccept-version:1.2\nhost:localhost\ncas-jwt:${token}\n\n\u0000`);
    await new Promise((resolve) => ws.on('close', resolve));
    const all = frames.join('');
    expect(all.startsWith('ERROR')).toBe(true);
    expect(all).not.toMatch(/password_hash|s-5f1e2d|select/);
  });
});

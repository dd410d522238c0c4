import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES, MESSAGES, TOKEN_HEADER, type LogonData, type UserInfo } from '@ship-cctv/protocol';
import { sessions } from '../../src/core/db/schema.ts';
import { DEMO_PASSWORD } from '../../src/core/db/demo-fleet.ts';
import { TEST_JWT_SECRET, type TestApp, build, logon } from '../helpers/build.ts';
import { addUser } from '../helpers/users.ts';

const LOGON = '/api/v1/sys/logon';
const LOGOUT = '/api/v1/sys/logout';
const VALID_USER = '/api/v1/sys/valid/user';
const VALID_TOKEN = '/api/v1/sys/valid/token';
const HEARTBEAT = '/api/v1/cctv/heartbeat';

interface Body<T = unknown> {
  code: number;
  message: string;
  data: T;
}

function body<T = unknown>(res: LightMyRequestResponse): Body<T> {
  return res.json<Body<T>>();
}

/** Asserts an error answer: the HTTP status, the same code in the envelope, data null. */
function expectError(res: LightMyRequestResponse, status: number, message?: string | RegExp): Body<null> {
  expect(res.statusCode, res.body).toBe(status);
  const b = body<null>(res);
  expect(b.code).toBe(status);
  expect(b.data).toBeNull();
  expect(typeof b.message).toBe('string');
  expect(b.message.length).toBeGreaterThan(0);
  if (typeof message === 'string') expect(b.message).toBe(message);
  else if (message) expect(b.message).toMatch(message);
  return b;
}

describe('session API', () => {
  let t: TestApp;

  const post = (payload: unknown, extra: Partial<InjectOptions> = {}) =>
    t.app.inject({ method: 'POST', url: LOGON, payload: payload as InjectOptions['payload'], ...extra });
  const get = (url: string, token?: string, extra: Partial<InjectOptions> = {}) =>
    t.app.inject({ method: 'GET', url, headers: token ? { [TOKEN_HEADER]: token } : {}, ...extra });

  async function signingKey(): Promise<Uint8Array> {
    return Buffer.from(TEST_JWT_SECRET, 'utf8');
  }

  beforeAll(async () => {
    // Many sign-ins from one address in this file: the per-address limit is tested on its own app below.
    t = await build({ logonPerAddressPerMinute: 10_000, trustProxy: true });
    const db = t.app.database.db;
    // A member of the sub-organisation only, and one used to exercise the lockout.
    await addUser(db, { id: 'u-tanker', username: 'tanker', orgIds: ['blueocean-tankers'] });
    await addUser(db, { id: 'u-lockme', username: 'lockme', orgIds: ['njzsz'], password: 'right-pass' });
  });
  afterAll(() => t?.close());

  describe('POST /api/v1/sys/logon', () => {
    it('signs in: answers the token and the user, and sets the newOrgToken cookie', async () => {
      const before = Date.now();
      const res = await post({ username: 'demo', password: DEMO_PASSWORD });
      expect(res.statusCode).toBe(200);
      const b = body<LogonData>(res);
      expect(b.code).toBe(200);
      expect(b.message).toBe('SUCCESS');
      expect(b.data.token.split('.')).toHaveLength(3);
      expect(b.data.user).toEqual({
        id: 'u-demo',
        username: 'demo',
        displayName: 'Demo Operator',
        role: 'manager',
        orgIds: ['blueocean', 'njzsz'],
      });
      // Default session lifetime: 24 hours.
      expect(b.data.expiresAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
      expect(b.data.expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);
      // Nothing of the password hash leaks.
      expect(res.body).not.toMatch(/argon2|passwordHash|password_hash/i);

      const cookie = res.cookies.find((c) => c.name === COOKIES.token);
      expect(cookie, String(res.headers['set-cookie'])).toBeDefined();
      expect(cookie?.value).toBe(b.data.token);
      expect(cookie?.path).toBe('/');
      expect(cookie?.sameSite).toBe('Lax');
      // The web app reads the cookie to track sign-in (spec §4), so it must not be httpOnly.
      expect(cookie?.httpOnly).toBeFalsy();
      // Plain http: not marked secure (the browser would drop it otherwise).
      expect(cookie?.secure).toBeFalsy();
      const expires = cookie?.expires ? new Date(cookie.expires).getTime() : NaN;
      expect(Math.abs(expires - b.data.expiresAt)).toBeLessThan(1500);

      // The token works at once.
      expect((await get(HEARTBEAT, b.data.token)).statusCode).toBe(200);
    });

    it('marks the cookie secure behind an https proxy', async () => {
      const res = await post({ username: 'njzsz', password: DEMO_PASSWORD }, { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === COOKIES.token)?.secure).toBe(true);
    });

    it('takes the user name regardless of case and surrounding blanks', async () => {
      const res = await post({ username: '  DeMo ', password: DEMO_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(body<LogonData>(res).data.user.id).toBe('u-demo');
    });

    it('answers 401 with a message for a wrong password, and sets no cookie', async () => {
      const res = await post({ username: 'demo', password: 'not-the-password' });
      expectError(res, 401, MESSAGES.wrongCredentials);
      expect(res.cookies.find((c) => c.name === COOKIES.token)).toBeUndefined();
    });

    it('answers an unknown user exactly like a wrong password (no user enumeration)', async () => {
      const unknown = await post({ username: 'nobody-here', password: DEMO_PASSWORD });
      const wrong = await post({ username: 'njzsz', password: 'wrong' });
      expectError(unknown, 401, MESSAGES.wrongCredentials);
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('passwords are case sensitive', async () => {
      expectError(await post({ username: 'demo', password: DEMO_PASSWORD.toUpperCase() }), 401);
    });

    it('answers 400 for a malformed JSON body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: LOGON,
        headers: { 'content-type': 'application/json' },
        payload: '{"username": "demo", "password": ',
      });
      expectError(res, 400, /json/i);
    });

    it('answers 400 for an empty JSON body', async () => {
      const res = await t.app.inject({ method: 'POST', url: LOGON, headers: { 'content-type': 'application/json' }, payload: '' });
      expectError(res, 400);
    });

    it('answers 400 naming the missing field', async () => {
      expectError(await post({ password: DEMO_PASSWORD }), 400, /username/);
      expectError(await post({ username: 'demo' }), 400, /password/);
      const neither = expectError(await post({}), 400);
      expect(neither.message).toMatch(/username|password/);
    });

    it('answers 400 naming an empty field', async () => {
      expectError(await post({ username: '', password: DEMO_PASSWORD }), 400, /username/);
      expectError(await post({ username: 'demo', password: '' }), 400, /password/);
    });

    it('answers 400 for an over-long user name and for a body that is not an object', async () => {
      expectError(await post({ username: 'x'.repeat(65), password: DEMO_PASSWORD }), 400, /username/);
      expectError(
        await t.app.inject({ method: 'POST', url: LOGON, headers: { 'content-type': 'application/json' }, payload: '["demo","demo-pass"]' }),
        400,
      );
    });

    it('locks a user out after 5 failures (default), even with the right password; a success before that resets the count', async () => {
      const wrong = () => post({ username: 'lockme', password: 'wrong' });
      const right = () => post({ username: 'lockme', password: 'right-pass' });
      for (let i = 0; i < 4; i++) expectError(await wrong(), 401);
      // Four failures: not locked; a success clears the count.
      expect((await right()).statusCode).toBe(200);
      const existing = body<LogonData>(await right()).data.token;

      for (let i = 0; i < 4; i++) expectError(await wrong(), 401);
      expectError(await wrong(), 401, MESSAGES.wrongCredentials); // the fifth failure locks
      expectError(await right(), 429, MESSAGES.lockedOut);
      // The user name is normalised before the lock is checked: case does not get around it.
      expectError(await post({ username: ' LockMe', password: 'right-pass' }), 429);
      // The lock is per user: others still sign in.
      expect((await post({ username: 'tanker', password: DEMO_PASSWORD })).statusCode).toBe(200);
      // An attacker guessing cannot end the user's current session.
      expect((await get(HEARTBEAT, existing)).statusCode).toBe(200);
    });
  });

  describe('limits (small limits)', () => {
    let small: TestApp;
    beforeAll(async () => {
      small = await build({ logonFailures: { maxFailures: 3, windowMs: 60_000, lockMs: 60_000 }, logonPerAddressPerMinute: 3 });
      await addUser(small.app.database.db, { id: 'u-spray', username: 'spray', orgIds: ['njzsz'], password: 'right-pass' });
    });
    afterAll(() => small?.close());

    const attempt = (username: string, password: string, remoteAddress: string) =>
      small.app.inject({ method: 'POST', url: LOGON, payload: { username, password }, remoteAddress });

    it("an attacker's failures from one address do not stop the user signing in from another", async () => {
      // The attacker guesses from one address (below the per-address request limit, which the
      // route applies on its own): that address waits, even with the right password.
      const meta = { address: '10.0.0.1' };
      for (let i = 0; i < 3; i++) await expect(small.app.sessions.logon('demo', `bad-${i}`, meta)).rejects.toMatchObject({ code: 401 });
      await expect(small.app.sessions.logon('demo', DEMO_PASSWORD, meta)).rejects.toMatchObject({ code: 429, message: MESSAGES.lockedOut });
      // The user, elsewhere, signs in.
      expect((await attempt('demo', DEMO_PASSWORD, '10.0.0.4')).statusCode).toBe(200);
      // Another user is not affected.
      expect((await attempt('njzsz', DEMO_PASSWORD, '10.0.0.5')).statusCode).toBe(200);
    });

    it('a guess spread over many addresses holds back new addresses, not those the user signed in from', async () => {
      await small.app.sessions.logon('spray', 'right-pass', { address: '10.9.0.1' }); // the user's own office
      for (let i = 0; i < 12; i++) {
        await small.app.sessions.logon('spray', `bad-${i}`, { address: `10.8.0.${i}` }).catch(() => undefined);
      }
      await expect(small.app.sessions.logon('spray', 'right-pass', { address: '10.8.0.99' })).rejects.toMatchObject({ code: 429 });
      expect((await small.app.sessions.logon('spray', 'right-pass', { address: '10.9.0.1' })).user.id).toBe('u-spray');
    });

    it('keys the per-address limit on the socket address, not a forged X-Forwarded-For (no trusted proxy)', async () => {
      const address = '10.0.2.1';
      for (let i = 0; i < 3; i++) {
        const res = await small.app.inject({
          method: 'POST',
          url: LOGON,
          payload: { username: 'ghost', password: 'wrong' },
          remoteAddress: address,
          headers: { 'x-forwarded-for': `192.0.2.${i}` },
        });
        expect(res.statusCode).not.toBe(429);
      }
      const limited = await small.app.inject({
        method: 'POST',
        url: LOGON,
        payload: { username: 'ghost', password: 'wrong' },
        remoteAddress: address,
        headers: { 'x-forwarded-for': '192.0.2.99' },
      });
      expect(expectError(limited, 429).message).toContain(MESSAGES.tooManyFromAddress);
    });

    it('limits sign-in attempts per address per minute (429), other addresses unaffected', async () => {
      const address = '10.0.1.1';
      for (let i = 0; i < 3; i++) {
        const res = await attempt('njzsz', i === 1 ? DEMO_PASSWORD : 'wrong', address);
        expect(res.statusCode).not.toBe(429);
      }
      const limited = await attempt('njzsz', DEMO_PASSWORD, address);
      const b = expectError(limited, 429);
      expect(b.message).toContain(MESSAGES.tooManyFromAddress);
      expect(limited.cookies.find((c) => c.name === COOKIES.token)).toBeUndefined();
      // The limit is per address: another one still signs in.
      expect((await attempt('njzsz', DEMO_PASSWORD, '10.0.1.2')).statusCode).toBe(200);
    });
  });

  describe('GET /api/v1/sys/logout', () => {
    it('ends the session: the token then answers 401, and the cookie is cleared', async () => {
      const { token } = await logon(t.app, 'njzsz');
      const res = await get(LOGOUT, token);
      expect(res.statusCode).toBe(200);
      expect(body(res)).toEqual({ code: 200, message: 'SUCCESS', data: null });
      const cleared = res.cookies.find((c) => c.name === COOKIES.token);
      expect(cleared).toBeDefined();
      expect(cleared?.value).toBe('');
      expect(new Date(cleared?.expires ?? Date.now()).getTime()).toBeLessThan(Date.now());

      expectError(await get(HEARTBEAT, token), 401, MESSAGES.authFailed);
      expectError(await get(VALID_TOKEN, token), 401);
      // Logging out twice is not possible either.
      expectError(await get(LOGOUT, token), 401);
      // The session row is ended as a logout (not a displacement).
      const rows = await t.app.database.db.select().from(sessions).where(eq(sessions.userId, 'u-njzsz'));
      const ended = rows.find((r) => decodeJwt(token).sid === r.id);
      expect(ended?.endedAt).toBeInstanceOf(Date);
      expect(ended?.endReason).toBe('logout');
    });

    it('answers 401 without a token', async () => {
      expectError(await get(LOGOUT), 401, MESSAGES.authFailed);
    });

    it('a new sign-in after logout works', async () => {
      const first = await logon(t.app, 'njzsz');
      await get(LOGOUT, first.token);
      const second = await logon(t.app, 'njzsz');
      expect((await get(HEARTBEAT, second.token)).statusCode).toBe(200);
    });
  });

  describe('GET /api/v1/sys/valid/user', () => {
    const ask = (token: string | undefined, userid?: string) =>
      get(userid === undefined ? VALID_USER : `${VALID_USER}?userid=${encodeURIComponent(userid)}`, token);

    it('answers the user themselves', async () => {
      const { token } = await logon(t.app, 'demo');
      const res = await ask(token, 'u-demo');
      expect(res.statusCode).toBe(200);
      expect(body<UserInfo>(res).data).toMatchObject({ id: 'u-demo', username: 'demo', orgIds: ['blueocean', 'njzsz'] });
      expect(res.body).not.toMatch(/argon2/);
    });

    it('refuses any other user, even one who shares an organisation', async () => {
      const demo = await logon(t.app, 'demo');
      const njzsz = await logon(t.app, 'njzsz');
      // demo and njzsz are both members of njzsz; neither may ask about the other.
      expectError(await ask(demo.token, 'u-njzsz'), 403, MESSAGES.forbidden);
      expectError(await ask(njzsz.token, 'u-demo'), 403, MESSAGES.forbidden);
      expectError(await ask(demo.token, 'u-tanker'), 403, MESSAGES.forbidden);
      const tanker = await logon(t.app, 'tanker');
      expectError(await ask(tanker.token, 'u-njzsz'), 403, MESSAGES.forbidden);
    });

    it('does not tell whether another user id exists', async () => {
      const { token } = await logon(t.app, 'demo');
      const unknown = await ask(token, 'u-nobody');
      const known = await ask(token, 'u-njzsz');
      expectError(unknown, 403, MESSAGES.forbidden);
      expect(unknown.body).toBe(known.body);
    });

    it('answers 400 when userid is missing or empty', async () => {
      const { token } = await logon(t.app, 'demo');
      expectError(await ask(token), 400, /userid/);
      expectError(await ask(token, ''), 400, /userid/);
    });

    it('answers 401 without a token, before looking at the query', async () => {
      expectError(await ask(undefined, 'u-demo'), 401, MESSAGES.authFailed);
      expectError(await ask(undefined), 401);
      expectError(await ask('garbage', 'u-demo'), 401);
    });
  });

  describe('GET /api/v1/sys/valid/token', () => {
    it('validates a token from the query, the cas-jwt header or the newOrgToken cookie', async () => {
      const { token } = await logon(t.app, 'demo');
      for (const res of [
        await get(`${VALID_TOKEN}?token=${encodeURIComponent(token)}`),
        await get(VALID_TOKEN, token),
        await t.app.inject({ method: 'GET', url: VALID_TOKEN, cookies: { [COOKIES.token]: token } }),
      ]) {
        expect(res.statusCode, res.body).toBe(200);
        const b = body<UserInfo>(res);
        expect(b.message).toBe('SUCCESS');
        expect(b.data).toMatchObject({ id: 'u-demo', username: 'demo' });
      }
    });

    it('prefers the query token (handed over by another portal) to the header', async () => {
      const demo = await logon(t.app, 'demo');
      const njzsz = await logon(t.app, 'njzsz');
      const res = await get(`${VALID_TOKEN}?token=${encodeURIComponent(njzsz.token)}`, demo.token);
      expect(res.statusCode).toBe(200);
      expect(body<UserInfo>(res).data.id).toBe('u-njzsz');
    });

    it('answers 401 "Authentication failed. Please contact administrator" for a garbage token', async () => {
      expectError(await get(`${VALID_TOKEN}?token=garbage`), 401, 'Authentication failed. Please contact administrator');
      expectError(await get(VALID_TOKEN, 'not.a.jwt'), 401, 'Authentication failed. Please contact administrator');
      expectError(await t.app.inject({ method: 'GET', url: VALID_TOKEN, cookies: { [COOKIES.token]: 'x' } }), 401);
    });

    it('answers 401 without any token', async () => {
      expectError(await get(VALID_TOKEN), 401, MESSAGES.authFailed);
    });

    it('answers 400 for an empty query token', async () => {
      expectError(await get(`${VALID_TOKEN}?token=`), 400, /token/);
    });

    it('answers 401 for an expired token signed with the right key', async () => {
      const { token } = await logon(t.app, 'demo');
      const { sid, sub } = decodeJwt(token);
      const expired = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(sub))
        .setIssuer('ship-cctv')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(await signingKey());
      expectError(await get(VALID_TOKEN, expired), 401, MESSAGES.authFailed);
      // Same claims, not expired: accepted, so the expiry is what was refused.
      const fresh = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(sub))
        .setIssuer('ship-cctv')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(await signingKey());
      expect((await get(VALID_TOKEN, fresh)).statusCode).toBe(200);
    });

    it('answers 401 for a forged signature, a tampered payload and an unsigned token', async () => {
      const { token } = await logon(t.app, 'demo');
      const claims = decodeJwt(token);
      const forged = await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.sub))
        .setIssuer('ship-cctv')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(randomBytes(32));
      expectError(await get(VALID_TOKEN, forged), 401, MESSAGES.authFailed);

      const [header, , signature] = token.split('.');
      const payload = Buffer.from(JSON.stringify({ ...claims, sub: 'u-njzsz' })).toString('base64url');
      expectError(await get(VALID_TOKEN, `${header}.${payload}.${signature}`), 401, MESSAGES.authFailed);

      const unsigned = new UnsecuredJWT({ sid: claims.sid }).setSubject(String(claims.sub)).setIssuer('ship-cctv').setExpirationTime('1h').encode();
      expectError(await get(VALID_TOKEN, unsigned), 401, MESSAGES.authFailed);
      // The genuine token still works.
      expect((await get(VALID_TOKEN, token)).statusCode).toBe(200);
    });

    it('answers 401 for a correctly signed token naming an unknown session or another user', async () => {
      const key = await signingKey();
      const { token } = await logon(t.app, 'demo');
      const { sid } = decodeJwt(token);
      const sign = (claims: { sid: string }, sub: string, issuer = 'ship-cctv') =>
        new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuer(issuer).setIssuedAt().setExpirationTime('1h').sign(key);
      expectError(await get(VALID_TOKEN, await sign({ sid: 'no-such-session' }, 'u-demo')), 401, MESSAGES.authFailed);
      // demo's live session, but claiming to be njzsz.
      expectError(await get(VALID_TOKEN, await sign({ sid: String(sid) }, 'u-njzsz')), 401, MESSAGES.authFailed);
      expectError(await get(VALID_TOKEN, await sign({ sid: String(sid) }, 'u-demo', 'someone-else')), 401);
    });

    it('answers 401 once the session row has expired, even if the token has not', async () => {
      const { token } = await logon(t.app, 'tanker');
      expect((await get(VALID_TOKEN, token)).statusCode).toBe(200);
      await t.app.database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.id, String(decodeJwt(token).sid)));
      expectError(await get(VALID_TOKEN, token), 401, MESSAGES.authFailed);
      expectError(await get(HEARTBEAT, token), 401);
    });
  });

  describe('GET /api/v1/cctv/heartbeat', () => {
    it('answers the server time and the session expiry, and records the heartbeat', async () => {
      const data = await logon(t.app, 'demo');
      const sid = String(decodeJwt(data.token).sid);
      const db = t.app.database.db;
      await db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 600_000) }).where(eq(sessions.id, sid));
      const before = Date.now();
      const res = await get(HEARTBEAT, data.token);
      expect(res.statusCode).toBe(200);
      const b = body<{ serverTime: number; expiresAt: number }>(res);
      expect(b.code).toBe(200);
      expect(b.message).toBe('SUCCESS');
      expect(b.data.serverTime).toBeGreaterThanOrEqual(before);
      expect(b.data.serverTime).toBeLessThanOrEqual(Date.now());
      expect(Math.abs(b.data.expiresAt - data.expiresAt)).toBeLessThan(1000);
      const [row] = await db.select().from(sessions).where(eq(sessions.id, sid));
      expect(row?.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('accepts the token from the newOrgToken cookie', async () => {
      const logonRes = await post({ username: 'demo', password: DEMO_PASSWORD });
      const cookie = logonRes.cookies.find((c) => c.name === COOKIES.token);
      const res = await t.app.inject({ method: 'GET', url: HEARTBEAT, cookies: { [COOKIES.token]: cookie?.value ?? '' } });
      expect(res.statusCode).toBe(200);
    });

    it('prefers the cas-jwt header to the cookie', async () => {
      const demo = await logon(t.app, 'demo');
      const res = await t.app.inject({
        method: 'GET',
        url: VALID_TOKEN,
        headers: { [TOKEN_HEADER]: demo.token },
        cookies: { [COOKIES.token]: 'stale-cookie' },
      });
      expect(res.statusCode).toBe(200);
      expect(body<UserInfo>(res).data.id).toBe('u-demo');
    });

    it('answers 401 without a token, with an empty one, or with a garbage one', async () => {
      expectError(await get(HEARTBEAT), 401, MESSAGES.authFailed);
      expectError(await t.app.inject({ method: 'GET', url: HEARTBEAT, headers: { [TOKEN_HEADER]: '' } }), 401);
      expectError(await get(HEARTBEAT, 'garbage'), 401, MESSAGES.authFailed);
    });
  });

  describe('displacement (one active session per user)', () => {
    it('a second sign-in displaces the first: its next call answers HTTP 402 with body code 402', async () => {
      const first = await logon(t.app, 'demo');
      expect((await get(HEARTBEAT, first.token)).statusCode).toBe(200);
      const second = await logon(t.app, 'demo');
      expect(second.token).not.toBe(first.token);

      const res = await get(HEARTBEAT, first.token);
      expectError(res, 402, MESSAGES.displaced);
      // Every authenticated call answers 402 for it, including the token check the route guard uses.
      expectError(await get(VALID_TOKEN, first.token), 402);
      expectError(await get(`${VALID_USER}?userid=u-demo`, first.token), 402);
      expectError(await get('/api/v1/cctv/monitor/getOrgShipTreeUnion', first.token), 402);
      expectError(await t.app.inject({ method: 'GET', url: HEARTBEAT, cookies: { [COOKIES.token]: first.token } }), 402);

      // The second works.
      expect((await get(HEARTBEAT, second.token)).statusCode).toBe(200);
      expect((await get(VALID_TOKEN, second.token)).statusCode).toBe(200);

      // Exactly one active session is left for the user.
      const active = await t.app.database.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, 'u-demo'), isNull(sessions.endedAt)));
      expect(active.map((s) => s.id)).toEqual([decodeJwt(second.token).sid]);
    });

    it('a displaced token cannot log out the newer session, and stays displaced after it ends', async () => {
      const first = await logon(t.app, 'demo');
      const second = await logon(t.app, 'demo');
      expectError(await get(LOGOUT, first.token), 402);
      expect((await get(HEARTBEAT, second.token)).statusCode).toBe(200);
      expect((await get(LOGOUT, second.token)).statusCode).toBe(200);
      expectError(await get(HEARTBEAT, second.token), 401);
      expectError(await get(HEARTBEAT, first.token), 402);
    });

    it("one user's sign-in does not displace another user's session", async () => {
      const njzsz = await logon(t.app, 'njzsz');
      await logon(t.app, 'demo');
      await logon(t.app, 'demo');
      expect((await get(HEARTBEAT, njzsz.token)).statusCode).toBe(200);
    });

    it('a failed sign-in does not displace the current session', async () => {
      const current = await logon(t.app, 'tanker');
      expectError(await post({ username: 'tanker', password: 'wrong' }), 401);
      expect((await get(HEARTBEAT, current.token)).statusCode).toBe(200);
    });
  });
});

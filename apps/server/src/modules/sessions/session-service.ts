import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { CODES, MESSAGES, type LogonData, type UserInfo } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { ApiError } from '../../core/http/envelope.ts';
import { hashPassword, verifyPassword } from '../../core/lib/passwords.ts';
import type { AuthContext, SessionEvents } from '../../core/http/auth.ts';
import { type Access, loadAccess } from '../../core/orgs/access.ts';
import { type FailureLimits, MemoryThrottleStore, SignInThrottle, type ThrottleStore } from './sign-in-throttle.ts';
import { SessionRepo, type UserRow } from './repo.ts';
import { loadSigningKey, type SigningKeySource } from './signing-key.ts';

export interface SessionOptions {
  ttlHours: number;
  logonFailures: FailureLimits;
  /** Where sign-in failures are counted (Redis with several instances); default: this process. */
  throttleStore?: ThrottleStore | undefined;
  /** Where the token signing key comes from (never the database). */
  signingKey?: SigningKeySource | undefined;
}

export type { AuthContext, SessionEndReason, SessionEvents } from '../../core/http/auth.ts';

const ISSUER = 'ship-cctv';

const authFailed = () => new ApiError(CODES.unauthorized, MESSAGES.authFailed);

/**
 * Sign-in, token checks, logout and displacement. Tokens are HS256 JWTs naming a session row;
 * a token is honoured only while that row is active, so logout and displacement take effect at once
 * on every server instance sharing the database.
 */
export class SessionService {
  readonly events = new EventEmitter<SessionEvents>();
  private key: Uint8Array = new Uint8Array();
  /** Verified for unknown user names so that both failures take the same time. */
  private dummyHash = '';
  private readonly failures: SignInThrottle;
  private readonly repo: SessionRepo;

  constructor(
    private readonly db: Db,
    private readonly opts: SessionOptions,
  ) {
    this.repo = new SessionRepo(db);
    this.failures = new SignInThrottle(opts.logonFailures, opts.throttleStore ?? new MemoryThrottleStore());
  }

  /** Loads the installation's signing key, creating it on first start. */
  async init(): Promise<void> {
    this.key = await loadSigningKey(this.db, this.opts.signingKey ?? {});
    this.dummyHash = await hashPassword(randomBytes(16).toString('hex'));
  }

  async logon(username: string, password: string, meta: { address: string; userAgent?: string | undefined }): Promise<LogonData> {
    const name = username.trim().toLowerCase();
    const throttled = await this.failures.check(name, meta.address);
    if (throttled) throw new ApiError(CODES.tooMany, throttled.by === 'address' ? MESSAGES.tooManyFromAddress : MESSAGES.lockedOut);
    const user = await this.repo.userByName(name);
    const valid = await verifyPassword(user?.passwordHash ?? this.dummyHash, password);
    if (!user || !valid) {
      await this.failures.failure(name, meta.address);
      throw new ApiError(CODES.unauthorized, MESSAGES.wrongCredentials);
    }
    await this.failures.success(name, meta.address);

    const sessionId = randomUUID();
    const expiresAt = Date.now() + this.opts.ttlHours * 3_600_000;
    const displaced = await this.repo.startSession({
      id: sessionId,
      userId: user.id,
      expiresAt: new Date(expiresAt),
      address: meta.address,
      userAgent: meta.userAgent?.slice(0, 512),
    });
    for (const s of displaced) this.events.emit('ended', { sessionId: s.id, userId: user.id, reason: 'displaced' });

    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(this.key);
    const access = await loadAccess(this.db, user.id);
    return { token, expiresAt, user: toUserInfo(user, access) };
  }

  /** Session lookups under way, by token: simultaneous requests with one token share one lookup. */
  private readonly lookups = new Map<string, Promise<AuthContext>>();

  /**
   * Answers the session a token names, or throws 401 (bad, expired, logged out) / 402 (displaced).
   * Requests that arrive while the same token's lookup is under way share its answer, so a burst
   * of one user's requests reads the session and the organisations once, not once per request.
   */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (!token) throw authFailed();
    const pending = this.lookups.get(token);
    if (pending) return pending;
    const lookup = this.lookup(token).finally(() => this.lookups.delete(token));
    this.lookups.set(token, lookup);
    return lookup;
  }

  private async lookup(token: string): Promise<AuthContext> {
    let sid: string;
    let sub: string;
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') throw authFailed();
      sid = payload.sid;
      sub = payload.sub;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (err instanceof joseErrors.JOSEError) throw authFailed();
      throw err;
    }
    const row = await this.repo.sessionWithUser(sid);
    if (!row || row.user.id !== sub) throw authFailed();
    if (row.session.endedAt) {
      if (row.session.endReason === 'displaced') throw new ApiError(CODES.displaced, MESSAGES.displaced);
      throw authFailed();
    }
    if (row.session.expiresAt.getTime() <= Date.now()) throw authFailed();
    const access = await loadAccess(this.db, row.user.id);
    return { ...access, sessionId: sid, user: toUserInfo(row.user, access), expiresAt: row.session.expiresAt.getTime() };
  }

  async logout(ctx: AuthContext): Promise<void> {
    await this.repo.endSession(ctx.sessionId);
    this.events.emit('ended', { sessionId: ctx.sessionId, userId: ctx.userId, reason: 'logout' });
  }

  async heartbeat(ctx: AuthContext): Promise<void> {
    await this.repo.touch(ctx.sessionId);
  }

  /** Who the user of an access is (its organisations and role as that access has them). */
  async userInfo(access: Access): Promise<UserInfo | undefined> {
    const user = await this.repo.userById(access.userId);
    if (!user) return undefined;
    return toUserInfo(user, access);
  }
}

function toUserInfo(user: UserRow, access: Access): UserInfo {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    role: access.role ?? 'operator',
    orgIds: access.memberOrgIds,
  };
}

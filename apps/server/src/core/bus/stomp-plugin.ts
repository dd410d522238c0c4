import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { CODES, COOKIES, MESSAGES, PATHS, PRODUCT_VERSION, TOKEN_HEADER, type ParsedDestination, parseDestination } from '@ship-cctv/protocol';
import { ApiError } from '../http/envelope.ts';
import type { AuthContext, SessionEvents, SignIn } from '../http/auth.ts';
import { type Snapshot, type StompErrorInfo, StompError, StompServer, type StompServerOptions } from './stomp-server.ts';

export type AppStompServer = StompServer<AuthContext, FastifyRequest>;

/** Who may subscribe to a kind of destination, decided by the feature that publishes there. */
export type SubscribeRule<K extends ParsedDestination['kind']> = (auth: AuthContext, destination: Extract<ParsedDestination, { kind: K }>) => Promise<boolean>;

/** The current state a module knows of a destination, as message bodies sent to a new subscriber (none: []). */
export type SnapshotPart = (destination: string) => Promise<readonly string[]>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The live channel (spec §7): publish status to destinations, see what is watched. */
    stomp: AppStompServer;
    /** A feature's own rule for its destinations (the ships' destinations are the fleet's). */
    stompSubscribeRule<K extends ParsedDestination['kind']>(kind: K, rule: SubscribeRule<K>): void;
    /** The rule for destinations no feature claimed (the fleet's: the ships a destination names). */
    stompDefaultRule(rule: (auth: AuthContext, destination: string) => Promise<boolean>): void;
    /** Who signs a connection in and says when a session ends (the sessions module), given once. */
    stompSignIn(signIn: SignIn): void;
    /** Adds a module's part of what a new subscriber gets first; parts are sent in the order they were added. */
    stompSnapshot(part: SnapshotPart): void;
  }
}

export type StompPluginOptions = Pick<
  StompServerOptions<AuthContext, FastifyRequest>,
  | 'heartBeat'
  | 'heartBeatGraceMs'
  | 'connectTimeoutMs'
  | 'maxFrameBytes'
  | 'maxSubscriptions'
  | 'maxSubscriptionsPerPrincipal'
  | 'frameBurst'
  | 'framesPerSecond'
  | 'maxBufferedBytes'
  | 'closeTimeoutMs'
>;

/**
 * ERROR frames about the session carry the REST envelope as JSON body, so the web app treats a
 * socket refusal like an HTTP 401/402 (spec §8) without parsing the message text.
 */
function sessionError(code: number, message: string): StompErrorInfo {
  return { message, body: JSON.stringify({ code, message, data: null }), contentType: 'application/json' };
}

/**
 * The STOMP endpoint at PATHS.stomp. A connection signs in with its session token: the CONNECT
 * header cas-jwt, else the passcode header, else the newOrgToken cookie of the upgrade request
 * (the web app sends empty login and passcode, spec §7, so in practice the cookie). Explicit
 * headers win over the cookie, as for HTTP requests (requestToken).
 */
export default fp<StompPluginOptions>(
  async (app, opts) => {
    const rules = new Map<string, (auth: AuthContext, destination: ParsedDestination) => Promise<boolean>>();
    let defaultRule: (auth: AuthContext, destination: string) => Promise<boolean> = async () => false;
    let signIn: SignIn | undefined;
    const parts: SnapshotPart[] = [];
    const stomp: AppStompServer = new StompServer<AuthContext, FastifyRequest>({
      ...opts,
      serverName: `ship-cctv/${PRODUCT_VERSION}`,
      // A user's subscriptions count together over all the user's connections (tabs, devices).
      principalKey: (auth) => auth.user.id,
      logger: app.log.child({ module: 'stomp' }),
      async authenticate({ headers, request }) {
        const token = headers[TOKEN_HEADER] || headers.passcode || request.cookies[COOKIES.token] || undefined;
        try {
          if (!signIn) throw new ApiError(CODES.unauthorized, MESSAGES.authFailed);
          return await signIn.authenticate(token);
        } catch (err) {
          if (err instanceof ApiError) throw new StompError(sessionError(err.code, err.message));
          throw err;
        }
      },
      authorizeSubscribe: (auth, destination) => {
        const parsed = parseDestination(destination);
        const rule = parsed ? rules.get(parsed.kind) : undefined;
        return rule && parsed ? rule(auth, parsed) : defaultRule(auth, destination);
      },
      snapshot: async (destination): Promise<Snapshot> => (await Promise.all(parts.map((part) => part(destination)))).flat(),
      expiry: (auth) => ({ at: auth.expiresAt, error: sessionError(CODES.unauthorized, MESSAGES.authFailed) }),
    });
    app.decorate('stomp', stomp);
    app.decorate('stompSubscribeRule', <K extends ParsedDestination['kind']>(kind: K, rule: SubscribeRule<K>) => {
      if (rules.has(kind)) throw new Error(`a subscribe rule for ${kind} destinations exists already`);
      rules.set(kind, rule as (auth: AuthContext, destination: ParsedDestination) => Promise<boolean>);
    });
    app.decorate('stompDefaultRule', (rule: (auth: AuthContext, destination: string) => Promise<boolean>) => {
      defaultRule = rule;
    });
    app.decorate('stompSnapshot', (part: SnapshotPart) => {
      parts.push(part);
    });

    // Logout and displacement end the session's sockets at once, not at the next CONNECT.
    const onEnded = ({ sessionId, reason }: SessionEvents['ended'][0]) => {
      const error =
        reason === 'displaced' ? sessionError(CODES.displaced, MESSAGES.displaced) : sessionError(CODES.unauthorized, MESSAGES.authFailed);
      stomp.closeWhere((auth) => auth.sessionId === sessionId, error);
    };
    app.decorate('stompSignIn', (given: SignIn) => {
      if (signIn) throw new Error('STOMP connections are signed in by one sessions service');
      signIn = given;
      given.events.on('ended', onEnded);
    });
    app.addHook('preClose', async () => {
      signIn?.events.off('ended', onEnded);
      await stomp.close();
    });

    app.get(PATHS.stomp, { websocket: true, schema: { hide: true } }, (socket, request) => {
      stomp.handleConnection(socket, request);
    });
  },
  {
    name: 'app-stomp',
    dependencies: ['app-websocket', '@fastify/cookie'],
  },
);

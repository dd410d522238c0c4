import { createHash, randomBytes } from 'node:crypto';

/**
 * RTSP authentication as cameras ask for it (RTSP 1.0 borrows HTTP's): Basic (RFC 7617) and
 * Digest (RFC 2617, with RFC 7616's SHA-256), from the `WWW-Authenticate` challenges of a 401.
 * Digest is preferred when offered: Basic sends the password in clear text on every request.
 */

export interface Challenge {
  scheme: 'basic' | 'digest';
  /** Parameter names in lower case, values unquoted. */
  params: Map<string, string>;
}

/** Every challenge of the given `WWW-Authenticate` header values; unknown schemes are left out. */
export function parseChallenges(headers: readonly string[]): Challenge[] {
  const out: Challenge[] = [];
  for (const header of headers) {
    let i = 0;
    let current: Challenge | undefined;
    let unknown = false;
    const s = header;
    const skip = (re: RegExp) => {
      while (i < s.length && re.test(s[i] as string)) i++;
    };
    while (i < s.length) {
      skip(/[\s,]/);
      const start = i;
      skip(/[^\s,=]/);
      const token = s.slice(start, i);
      if (!token) break;
      skip(/[ \t]/);
      if (s[i] === '=') {
        i++;
        skip(/[ \t]/);
        let value = '';
        if (s[i] === '"') {
          i++;
          while (i < s.length && s[i] !== '"') {
            if (s[i] === '\\' && i + 1 < s.length) i++;
            value += s[i];
            i++;
          }
          i++;
        } else {
          const v = i;
          skip(/[^,]/);
          value = s.slice(v, i).trim();
        }
        if (current && !unknown) current.params.set(token.toLowerCase(), value);
      } else {
        // A token without '=' is the next challenge's scheme.
        const scheme = token.toLowerCase();
        unknown = scheme !== 'basic' && scheme !== 'digest';
        current = unknown ? undefined : { scheme: scheme as Challenge['scheme'], params: new Map() };
        if (current) out.push(current);
      }
    }
  }
  return out;
}

const HASHES: Record<string, 'md5' | 'sha256'> = { MD5: 'md5', 'MD5-SESS': 'md5', 'SHA-256': 'sha256', 'SHA-256-SESS': 'sha256' };

export interface Credentials {
  username: string;
  password: string;
}

/**
 * The `Authorization` header for each request once a challenge is known. Digest counts its
 * nonce's uses (`nc`) as RFC 2617 asks when the camera gave `qop=auth`.
 */
export class Authenticator {
  private challenge: Challenge | undefined;
  private nonceCount = 0;

  constructor(
    private readonly credentials: Credentials,
    private readonly cnonce: () => string = () => randomBytes(8).toString('hex'),
  ) {}

  /** Whether a challenge is in use. */
  get active(): boolean {
    return this.challenge !== undefined;
  }

  /**
   * Takes the challenges of a 401. Returns false when a retry cannot help: no scheme we speak, or
   * a Digest challenge that is not stale for a nonce we already answered (the password is wrong).
   */
  accept(challenges: readonly Challenge[]): boolean {
    const digest = challenges.find((c) => c.scheme === 'digest' && HASHES[(c.params.get('algorithm') ?? 'MD5').toUpperCase()] !== undefined);
    const chosen = digest ?? challenges.find((c) => c.scheme === 'basic');
    if (!chosen) return false;
    const previous = this.challenge;
    if (previous && previous.scheme === chosen.scheme) {
      const stale = chosen.params.get('stale')?.toLowerCase() === 'true';
      const newNonce = chosen.scheme === 'digest' && chosen.params.get('nonce') !== previous.params.get('nonce');
      if (!stale && !newNonce) return false;
    }
    this.challenge = chosen;
    this.nonceCount = 0;
    return true;
  }

  /** The header value for a request, or undefined before any challenge. */
  header(method: string, uri: string): string | undefined {
    const c = this.challenge;
    if (!c) return undefined;
    const { username, password } = this.credentials;
    if (c.scheme === 'basic') return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const realm = c.params.get('realm') ?? '';
    const nonce = c.params.get('nonce') ?? '';
    const algorithm = (c.params.get('algorithm') ?? 'MD5').toUpperCase();
    const hash = HASHES[algorithm] ?? 'md5';
    const h = (text: string) => createHash(hash).update(text).digest('hex');
    const qop = (c.params.get('qop') ?? '')
      .split(',')
      .map((q) => q.trim().toLowerCase())
      .includes('auth')
      ? 'auth'
      : undefined;
    const cnonce = qop || algorithm.endsWith('-SESS') ? this.cnonce() : '';
    let ha1 = h(`${username}:${realm}:${password}`);
    if (algorithm.endsWith('-SESS')) ha1 = h(`${ha1}:${nonce}:${cnonce}`);
    const ha2 = h(`${method}:${uri}`);
    const parts = [`username="${quote(username)}"`, `realm="${quote(realm)}"`, `nonce="${quote(nonce)}"`, `uri="${quote(uri)}"`];
    let response: string;
    if (qop) {
      this.nonceCount += 1;
      const nc = this.nonceCount.toString(16).padStart(8, '0');
      response = h(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`);
      parts.push(`response="${response}"`, `qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
    } else {
      response = h(`${ha1}:${nonce}:${ha2}`);
      parts.push(`response="${response}"`);
      if (cnonce) parts.push(`cnonce="${cnonce}"`);
    }
    if (c.params.has('algorithm')) parts.push(`algorithm=${c.params.get('algorithm')}`);
    const opaque = c.params.get('opaque');
    if (opaque !== undefined) parts.push(`opaque="${quote(opaque)}"`);
    return `Digest ${parts.join(', ')}`;
  }
}

const quote = (s: string) => s.replace(/["\\]/g, (m) => `\\${m}`);

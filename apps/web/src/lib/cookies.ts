/** Minimal document.cookie helpers: the token and language cookies are plain, readable, path=/. */

export function readCookie(name: string, cookieString: string = document.cookie): string | undefined {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

export interface CookieOptions {
  /** Absolute expiry; without it the cookie lasts for the browser session. */
  expires?: Date;
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  let cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
  if (options.expires) cookie += `; expires=${options.expires.toUTCString()}`;
  if (location.protocol === 'https:') cookie += '; Secure';
  document.cookie = cookie;
}

export function deleteCookie(name: string): void {
  document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

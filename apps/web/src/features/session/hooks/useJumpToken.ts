import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { COOKIES } from '@ship-cctv/protocol';
import { writeCookie } from '../../../lib/cookies.ts';
import { validToken } from '../api/valid-token.ts';
import { sessionStore } from '../../../lib/session-store.ts';

/**
 * /jump?token=…: another portal hands over a token. It is checked with the server, then kept as
 * the session cookie with isjump=1 (the mobile layout shows its logout icon only then), and the
 * app opens at `home`. Returns the token (empty when the link has none) and whether the server
 * refused it.
 */
export function useJumpToken(home: string): { token: string; failed: boolean } {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [failed, setFailed] = useState(false);
  // One check per token, also under StrictMode's double effect.
  const checked = useRef<string | null>(null);

  useEffect(() => {
    if (!token || checked.current === token) return;
    checked.current = token;
    validToken(token).then(
      (user) => {
        writeCookie(COOKIES.token, token);
        writeCookie(COOKIES.isJump, '1');
        sessionStore.signedIn(user);
        void navigate(home, { replace: true });
      },
      () => setFailed(true),
    );
  }, [token, navigate, home]);

  return { token, failed };
}

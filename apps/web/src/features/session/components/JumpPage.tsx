import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { COOKIES } from '@ship-cctv/protocol';
import { writeCookie } from '../../../lib/cookies.ts';
import { validToken } from '../api/valid-token.ts';
import { LOGIN_PATH } from '../route-guard.ts';
import { sessionStore } from '../session-store.ts';
import { FullPageSpin } from './RouteGuard.tsx';

/**
 * /jump?token=…: another portal hands over a token. It is checked with the server, then kept as
 * the session cookie with isjump=1 (the mobile layout shows its logout icon only then), and the
 * app opens.
 */
export function JumpPage() {
  const { t } = useTranslation();
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
        void navigate('/live', { replace: true });
      },
      () => setFailed(true),
    );
  }, [token, navigate]);

  if (!token || failed) {
    return (
      <Result
        status="warning"
        title={token ? t('session.jump.failed') : t('session.jump.missingToken')}
        extra={
          <Link to={LOGIN_PATH}>
            <Button type="primary">{t('session.jump.toSignIn')}</Button>
          </Link>
        }
      />
    );
  }
  return <FullPageSpin tip={t('session.jump.checking')} />;
}

import { Link } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useJumpToken } from '../hooks/useJumpToken.ts';
import { LOGIN_PATH } from '../route-guard.ts';
import { FullPageSpin } from './RouteGuard.tsx';

/** /jump?token=… on the desktop: checks the handed-over token (useJumpToken), then opens /live. */
export function JumpPage() {
  const { t } = useTranslation();
  const { token, failed } = useJumpToken('/live');

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

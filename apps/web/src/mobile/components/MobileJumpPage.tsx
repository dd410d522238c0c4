import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useJumpToken } from '../../features/session/index.ts';
import { LOGIN_PATH } from '../../features/session/index.ts';
import { MOBILE_HOME } from '../routes.ts';
import { FullPageLoading } from './FullPageLoading.tsx';
import { MessagePage } from './MessagePage.tsx';

/**
 * /jump?token=… on a phone: another portal hands over a token; once the server accepts it, it is
 * kept as the session cookie with isjump=1 (which shows the person icon and its logout).
 */
export function MobileJumpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token, failed } = useJumpToken(MOBILE_HOME);

  if (!token || failed) {
    return (
      <MessagePage title={token ? t('session.jump.failed') : t('session.jump.missingToken')}>
        <Button color="primary" onClick={() => void navigate(LOGIN_PATH, { replace: true })}>
          {t('session.jump.toSignIn')}
        </Button>
      </MessagePage>
    );
  }
  return <FullPageLoading tip={t('session.jump.checking')} />;
}

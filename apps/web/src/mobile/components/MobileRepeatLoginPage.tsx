import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOGIN_PATH } from '../../features/session/index.ts';
import { MessagePage } from './MessagePage.tsx';

/**
 * Where a session displaced by a newer sign-in of the same account (402) lands, as on the desktop:
 * the session handler sends every form factor to /repeatLogin, and a phone explains it too.
 */
export function MobileRepeatLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <MessagePage title={t('session.repeatLogin.title')} description={t('session.repeatLogin.description')}>
      <Button color="primary" onClick={() => void navigate(LOGIN_PATH, { replace: true })}>
        {t('session.repeatLogin.toSignIn')}
      </Button>
    </MessagePage>
  );
}

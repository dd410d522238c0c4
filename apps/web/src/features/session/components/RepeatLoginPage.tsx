import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOGIN_PATH } from '../route-guard.ts';

/** /repeatLogin: this session was displaced by a newer sign-in of the same account (code 402). */
export function RepeatLoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={t('session.repeatLogin.title')}
      subTitle={t('session.repeatLogin.description')}
      extra={
        <Button type="primary" onClick={() => void navigate(LOGIN_PATH, { replace: true })}>
          {t('session.repeatLogin.toSignIn')}
        </Button>
      }
    />
  );
}

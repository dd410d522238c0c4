import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogonBody, LogonData } from '@ship-cctv/protocol';
import { useLogon } from '../api/logon.ts';
import { logonErrorText } from '../logon-error.ts';

export interface SignInFormProps {
  /** Called once signed in (the login screen enters the app); without it the form says who signed in. */
  onSignedIn?: (data: LogonData) => void;
}

/** User name, password, and the sign-in errors worded (wrong password, locked out, unreachable). */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const { t } = useTranslation();
  const logon = useLogon();

  if (logon.data && !onSignedIn) {
    return <Alert type="success" showIcon title={t('signIn.signedInAs', { name: logon.data.user.displayName })} />;
  }

  return (
    <Form<LogonBody>
      layout="vertical"
      requiredMark={false}
      aria-label={t('signIn.title')}
      onFinish={(values) => logon.mutate(values, { onSuccess: (data) => onSignedIn?.(data) })}
    >
      <Form.Item label={t('signIn.username')} name="username" rules={[{ required: true, message: t('signIn.usernamePrompt') }]}>
        <Input autoComplete="username" placeholder={t('signIn.usernamePrompt')} maxLength={64} />
      </Form.Item>
      <Form.Item label={t('signIn.password')} name="password" rules={[{ required: true, message: t('signIn.passwordPrompt') }]}>
        <Input.Password autoComplete="current-password" placeholder={t('signIn.passwordPrompt')} maxLength={256} />
      </Form.Item>
      {logon.error ? (
        <Form.Item>
          <Alert type="error" showIcon role="alert" title={logonErrorText(t, logon.error)} />
        </Form.Item>
      ) : null}
      <Button type="primary" htmlType="submit" block loading={logon.isPending}>
        {t('signIn.submit')}
      </Button>
    </Form>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Flex, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogonData } from '@ship-cctv/protocol';
import { useLogon } from '../api/logon.ts';
import { logonErrorText } from '../logon-error.ts';

export interface SignInFormProps {
  /** Called once signed in (the login screen enters the app); without it the form says who signed in. */
  onSignedIn?: (data: LogonData) => void;
}

const fieldError = { color: 'var(--ant-color-error, #ff4d4f)', fontSize: 14, lineHeight: '22px' } as const;

/**
 * User name, password, and the sign-in errors worded (wrong password, locked out, unreachable).
 * A plain form with antd's inputs: antd's Form (with its store and validator) is the one part of
 * the sign-in page the main preview never uses, and the first visit downloads both.
 */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const { t } = useTranslation();
  const logon = useLogon();
  const id = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const missingUser = checked && username.trim() === '';
  const missingPassword = checked && password === '';

  if (logon.data && !onSignedIn) {
    return <Alert type="success" showIcon title={t('signIn.signedInAs', { name: logon.data.user.displayName })} />;
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (username.trim() === '' || password === '') return;
    logon.mutate({ username, password }, { onSuccess: (data) => onSignedIn?.(data) });
  };

  return (
    <form aria-label={t('signIn.title')} onSubmit={submit} noValidate>
      <Flex vertical gap={16}>
        <Flex vertical gap={8}>
          <label htmlFor={`${id}-username`}>{t('signIn.username')}</label>
          <Input
            id={`${id}-username`}
            autoComplete="username"
            placeholder={t('signIn.usernamePrompt')}
            maxLength={64}
            value={username}
            status={missingUser ? 'error' : undefined}
            aria-invalid={missingUser}
            aria-describedby={missingUser ? `${id}-username-error` : undefined}
            onChange={(e) => setUsername(e.target.value)}
          />
          {missingUser ? (
            <div id={`${id}-username-error`} style={fieldError} data-field-error="username">
              {t('signIn.usernamePrompt')}
            </div>
          ) : null}
        </Flex>
        <Flex vertical gap={8}>
          <label htmlFor={`${id}-password`}>{t('signIn.password')}</label>
          <Input.Password
            id={`${id}-password`}
            autoComplete="current-password"
            placeholder={t('signIn.passwordPrompt')}
            maxLength={256}
            value={password}
            status={missingPassword ? 'error' : undefined}
            aria-invalid={missingPassword}
            aria-describedby={missingPassword ? `${id}-password-error` : undefined}
            onChange={(e) => setPassword(e.target.value)}
          />
          {missingPassword ? (
            <div id={`${id}-password-error`} style={fieldError} data-field-error="password">
              {t('signIn.passwordPrompt')}
            </div>
          ) : null}
        </Flex>
        {logon.error ? <Alert type="error" showIcon role="alert" title={logonErrorText(t, logon.error)} /> : null}
        <Button type="primary" htmlType="submit" block loading={logon.isPending}>
          {t('signIn.submit')}
        </Button>
      </Flex>
    </form>
  );
}

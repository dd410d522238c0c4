import { useState, type FormEvent } from 'react';
import { Button, Input } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../shared/runtime-config.tsx';
import { useLogon } from '../../features/session/index.ts';
import { logonErrorText } from '../../features/session/index.ts';
import { sessionStore } from '../../features/session/index.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import styles from '../mobile.module.css';

/**
 * /login on a phone: title, version, language, and the same sign-in call and errors as the
 * desktop. A plain form: antd-mobile's Form would bring a validation library for two required fields.
 */
export function MobileLoginPage() {
  const { t } = useTranslation();
  const { version } = useRuntimeConfig();
  const navigate = useNavigate();
  const logon = useLogon();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const missingUser = touched && username.trim() === '';
  const missingPassword = touched && password === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (username.trim() === '' || password === '') return;
    logon.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (data) => {
          // The token was just issued: no need for the guard to validate it again in this page load.
          sessionStore.signedIn(data.user);
          void navigate('/', { replace: true });
        },
      },
    );
  };

  return (
    <div className={styles.loginPage}>
      <h1 className={styles.loginTitle}>{t('app.title')}</h1>
      <div className={styles.muted} data-testid="app-version">
        {t('app.version', { version })}
      </div>
      <LanguageSwitch />
      <form className={styles.loginForm} aria-label={t('signIn.title')} onSubmit={submit} noValidate>
        <div className={styles.loginField}>
          <label htmlFor="mobile-username">{t('signIn.username')}</label>
          <Input id="mobile-username" autoComplete="username" placeholder={t('signIn.usernamePrompt')} maxLength={64} clearable value={username} onChange={setUsername} aria-invalid={missingUser} />
          {missingUser ? <small className={styles.error}>{t('signIn.usernamePrompt')}</small> : null}
        </div>
        <div className={styles.loginField}>
          <label htmlFor="mobile-password">{t('signIn.password')}</label>
          <Input id="mobile-password" type="password" autoComplete="current-password" placeholder={t('signIn.passwordPrompt')} maxLength={256} value={password} onChange={setPassword} aria-invalid={missingPassword} />
          {missingPassword ? <small className={styles.error}>{t('signIn.passwordPrompt')}</small> : null}
        </div>
        <Button block type="submit" color="primary" size="large" loading={logon.isPending}>
          {t('signIn.submit')}
        </Button>
      </form>
      {logon.error ? (
        <div role="alert" className={styles.error}>
          {logonErrorText(t, logon.error)}
        </div>
      ) : null}
    </div>
  );
}

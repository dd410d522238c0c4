import { Card, Flex, Segmented, Typography, theme } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, switchLanguage, toLanguage, type Language } from '../../../i18n/index.ts';
import { useRuntimeConfig } from '../../../shared/runtime-config.tsx';
import { sessionStore } from '../../../lib/session-store.ts';
import { SignInForm } from './SignInForm.tsx';

const LANGUAGE_LABEL_KEYS = { 'zh-CN': 'language.zhCN', en: 'language.en' } as const;

/** /login: product title, version, language choice and the sign-in form. */
export function LoginPage() {
  const { t, i18n } = useTranslation();
  const { version } = useRuntimeConfig();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const language = toLanguage(i18n.language) ?? 'zh-CN';

  return (
    <Flex vertical align="center" gap={24} style={{ minHeight: '100vh', padding: '64px 16px', background: token.colorBgLayout }}>
      <Flex vertical align="center" gap={4}>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t('app.title')}
        </Typography.Title>
        <Typography.Text type="secondary" data-testid="app-version">
          {t('app.version', { version })}
        </Typography.Text>
      </Flex>
      <Segmented<Language>
        aria-label={t('language.label')}
        value={language}
        options={LANGUAGES.map((value) => ({ value, label: t(LANGUAGE_LABEL_KEYS[value]) }))}
        onChange={(value) => void switchLanguage(i18n, value)}
      />
      <Card title={t('signIn.title')} style={{ width: 360, maxWidth: '100%' }}>
        <SignInForm
          onSignedIn={(data) => {
            // The token was just issued: no need for the guard to validate it again in this page load.
            sessionStore.signedIn(data.user);
            void navigate('/', { replace: true });
          }}
        />
      </Card>
    </Flex>
  );
}

import { Card, Flex, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, switchLanguage, toLanguage, type Language } from '../../i18n/index.ts';
import { SignInForm } from '../../features/session/components/SignInForm.tsx';
import { useRuntimeConfig } from '../runtime-config.tsx';

const LANGUAGE_LABEL_KEYS = { 'zh-CN': 'language.zhCN', en: 'language.en' } as const;

/** Stands in for the app shell: title, version, language choice and sign-in. */
export function PlaceholderPage() {
  const { t, i18n } = useTranslation();
  const { version } = useRuntimeConfig();
  const language = toLanguage(i18n.language) ?? 'zh-CN';

  return (
    <Flex vertical align="center" gap={24} style={{ minHeight: '100vh', padding: '64px 16px', background: '#f0f2f5' }}>
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
        <SignInForm />
      </Card>
      <Typography.Text type="secondary">{t('app.placeholderNote')}</Typography.Text>
    </Flex>
  );
}

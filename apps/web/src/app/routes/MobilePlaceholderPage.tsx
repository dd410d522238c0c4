import { Flex, Segmented, Typography } from 'antd';
import { LIMITS } from '@ship-cctv/protocol';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, switchLanguage, toLanguage, type Language } from '../../i18n/index.ts';

const LANGUAGE_LABEL_KEYS = { 'zh-CN': 'language.zhCN', en: 'language.en' } as const;

/** What a phone or tablet gets until the mobile app (its own issue) is built: no desktop component. */
export function MobilePlaceholderPage() {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language) ?? 'zh-CN';
  return (
    <Flex vertical align="center" gap={16} style={{ minHeight: '100vh', minWidth: LIMITS.minWidthMobilePx, padding: '48px 16px', boxSizing: 'border-box', textAlign: 'center' }} data-testid="mobile-placeholder">
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('app.title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('shell.mobile.note')}</Typography.Text>
      <Segmented<Language>
        aria-label={t('language.label')}
        value={language}
        options={LANGUAGES.map((value) => ({ value, label: t(LANGUAGE_LABEL_KEYS[value]) }))}
        onChange={(value) => void switchLanguage(i18n, value)}
      />
    </Flex>
  );
}

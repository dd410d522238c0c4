import { Selector } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, switchLanguage, toLanguage, type Language } from '../../i18n/index.ts';

const LABEL_KEYS = { 'zh-CN': 'language.zhCN', en: 'language.en' } as const;

/** 中文 / English (spec §1): switching writes the language cookie for a day. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = toLanguage(i18n.language) ?? 'zh-CN';
  return (
    <div role="group" aria-label={t('language.label')}>
      <Selector<Language>
        columns={2}
        showCheckMark={false}
        value={[language]}
        options={LANGUAGES.map((value) => ({ value, label: t(LABEL_KEYS[value]) }))}
        onChange={([value]) => {
          if (value && value !== language) void switchLanguage(i18n, value);
        }}
      />
    </div>
  );
}

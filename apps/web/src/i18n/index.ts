import i18next, { type i18n } from 'i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { COOKIES, LIMITS } from '@ship-cctv/protocol';
import { readCookie, writeCookie } from '../lib/cookies.ts';
import { chooseLanguage, toLanguage, type Language } from './language.ts';
import { en } from './locales/en.ts';
import { zhCN } from './locales/zh-CN.ts';

export { LANGUAGES, chooseLanguage, toLanguage, type Language } from './language.ts';

export const resources = {
  'zh-CN': { translation: zhCN },
  en: { translation: en },
} as const;

/** The language to start with, from this browser's cookie and settings (spec §1). */
export function detectLanguage(fallback?: string): Language {
  return chooseLanguage({
    cookie: readCookie(COOKIES.language),
    navigator: typeof navigator === 'undefined' ? undefined : navigator.language,
    fallback: toLanguage(fallback),
  });
}

/** Side effects of a language outside React: the page language, its title and dayjs's locale. */
function applyToDocument(instance: i18n, language: Language): void {
  dayjs.locale(language === 'zh-CN' ? 'zh-cn' : 'en');
  if (typeof document !== 'undefined') {
    document.documentElement.lang = language;
    document.title = instance.t('app.title');
  }
}

/** A ready i18next instance (resources are bundled, so it initialises synchronously). */
export function createI18n(language: Language): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    // A copy: a feature's lazily added texts go into this instance's store, not into the shared
    // resources that the next instance starts from.
    resources: structuredClone(resources),
    lng: language,
    fallbackLng: 'zh-CN',
    supportedLngs: ['zh-CN', 'en'],
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  });
  applyToDocument(instance, language);
  return instance;
}

/** Switches language and remembers the choice in the `language` cookie for 1 day (spec §1, §9). */
export async function switchLanguage(instance: i18n, language: Language): Promise<void> {
  writeCookie(COOKIES.language, language, {
    expires: new Date(Date.now() + LIMITS.languageCookieDays * 24 * 60 * 60 * 1000),
  });
  await instance.changeLanguage(language);
  applyToDocument(instance, language);
}

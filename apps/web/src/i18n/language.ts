export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Spec §1: Chinese is the fallback. */
export const FALLBACK_LANGUAGE: Language = 'zh-CN';

/** Maps a cookie value or a browser tag (zh, zh-CN, zh-Hans-CN, en-GB, ...) to a supported language. */
export function toLanguage(value: string | null | undefined): Language | undefined {
  if (!value) return undefined;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return undefined;
}

export interface LanguageSources {
  /** Value of the `language` cookie. */
  cookie?: string | undefined;
  /** `navigator.language`. */
  navigator?: string | undefined;
  /** Used when neither of the above names a supported language. */
  fallback?: Language | undefined;
}

/** Spec §1: the language cookie, else the browser language, else Chinese. */
export function chooseLanguage({ cookie, navigator, fallback = FALLBACK_LANGUAGE }: LanguageSources): Language {
  return toLanguage(cookie) ?? toLanguage(navigator) ?? fallback;
}

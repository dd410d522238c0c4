import type { i18n } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * Texts that come with a feature's lazily loaded code instead of the first screen's bundle: added
 * to an i18next instance (both languages, under `key`, merged into what is there) the first time
 * one of the feature's components asks for them. Their keys are typed in i18next.d.ts.
 */
export function lazyTexts<T extends object>(key: string, zhCN: T, en: T) {
  const added = new WeakSet<i18n>();
  /** Adds the texts to an instance once. */
  const add = (instance: i18n): void => {
    if (added.has(instance)) return;
    added.add(instance);
    instance.addResourceBundle('zh-CN', 'translation', { [key]: zhCN }, true, true);
    instance.addResourceBundle('en', 'translation', { [key]: en }, true, true);
  };
  /** useTranslation, with the texts in place. */
  const useTexts = () => {
    const result = useTranslation();
    add(result.i18n);
    return result;
  };
  return { add, useTexts };
}

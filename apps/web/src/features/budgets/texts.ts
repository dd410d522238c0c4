import type { i18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { budgetsEn, budgetsZhCN } from './locales.ts';

/**
 * Data budgets' texts come with their code, which loads lazily: the live preview's first screen
 * (and the phone's entry) stay within their size budgets without them. Added once per i18next
 * instance, before the first text is read.
 */
export function addBudgetTexts(instance: i18n): void {
  if (instance.hasResourceBundle('en', 'translation') && instance.exists('budgets.title', { lng: 'en' })) return;
  instance.addResourceBundle('zh-CN', 'translation', { budgets: budgetsZhCN }, true, false);
  instance.addResourceBundle('en', 'translation', { budgets: budgetsEn }, true, false);
}

/** useTranslation, with the budgets' texts in place. */
export function useBudgetTranslation() {
  const result = useTranslation();
  addBudgetTexts(result.i18n);
  return result;
}

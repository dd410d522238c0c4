import { lazyTexts } from '../../i18n/lazy-texts.ts';
import { budgetsEn, budgetsZhCN } from './locales.ts';

/**
 * Data budgets' texts come with their code, which loads lazily: the live preview's first screen
 * (and the phone's entry) stay within their size budgets without them.
 */
const texts = lazyTexts('budgets', budgetsZhCN, budgetsEn);

/** Adds the budgets' texts to an i18next instance (once). */
export const addBudgetTexts = texts.add;
/** useTranslation, with the budgets' texts in place. */
export const useBudgetTranslation = texts.useTexts;

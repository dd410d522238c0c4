import { lazyTexts } from '../../i18n/lazy-texts.ts';
import { stillsEn, stillsZhCN } from './locales.ts';

/** Stills texts come with the feature's code, which loads lazily (the first screen's budget). */
const texts = lazyTexts('stills', stillsZhCN, stillsEn);

export const addStillsTexts = texts.add;
/** useTranslation, with the stills texts in place. */
export const useStillsTranslation = texts.useTexts;

import { lazyTexts } from '../../i18n/lazy-texts.ts';
import { eventsEn, eventsZhCN } from './locales.ts';

/**
 * The events screens' texts come with their lazily loaded code; only the menu items and the
 * phone's tab are in the first screen's texts.
 */
const texts = lazyTexts('events', eventsZhCN, eventsEn);

/** Adds the events' texts to an i18next instance (once). */
export const addEventTexts = texts.add;
/** useTranslation, with the events' texts in place. */
export const useEventsTranslation = texts.useTexts;

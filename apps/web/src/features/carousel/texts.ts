import { lazyTexts } from '../../i18n/lazy-texts.ts';
import { carouselEn, carouselZhCN } from './locales.ts';

/**
 * The carousel screen's texts come with its lazily loaded code; only the menu's name
 * (`carousel.menu`) is in the first screen's texts.
 */
const texts = lazyTexts('carousel', carouselZhCN, carouselEn);

/** Adds the carousel's texts to an i18next instance (once). */
export const addCarouselTexts = texts.add;
/** useTranslation, with the carousel's texts in place. */
export const useCarouselTranslation = texts.useTexts;

import { lazyTexts } from '../../i18n/lazy-texts.ts';
import { linkPoliciesEn, linkPoliciesZhCN } from './locales.ts';

/**
 * The link-policy screen's texts come with its lazily loaded code; only the settings menu's item
 * (`linkPolicies.menu`) is in the first screen's texts.
 */
const texts = lazyTexts('linkPolicies', linkPoliciesZhCN, linkPoliciesEn);

/** Adds the link policies' texts to an i18next instance (once). */
export const addLinkPolicyTexts = texts.add;
/** useTranslation, with the link policies' texts in place. */
export const useLinkPolicyTranslation = texts.useTexts;

import 'i18next';
import type { zhCN } from './locales/zh-CN.ts';
import type { budgetsZhCN } from '../features/budgets/locales.ts';
import type { carouselZhCN } from '../features/carousel/locales.ts';
import type { stillsZhCN } from '../features/stills/locales.ts';
import type { linkPoliciesZhCN } from '../features/link-policies/locales.ts';
import type { eventsZhCN } from '../features/events/locales.ts';
import type { PictureListsTexts } from '../features/pictures/locales.ts';

// Keys of t() are checked against the Chinese texts, the source language. Data budgets, stills, the
// carousel, link policies and the picture lists bring their texts with their lazily loaded code (i18n/lazy-texts.ts), so they are typed here.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN & { budgets: typeof budgetsZhCN; carousel: typeof carouselZhCN; stills: typeof stillsZhCN; linkPolicies: typeof linkPoliciesZhCN; pictureLists: PictureListsTexts; events: typeof eventsZhCN } };
  }
}

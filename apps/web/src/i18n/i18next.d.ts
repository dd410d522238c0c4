import 'i18next';
import type { zhCN } from './locales/zh-CN.ts';
import type { budgetsZhCN } from '../features/budgets/locales.ts';

// Keys of t() are checked against the Chinese texts, the source language. Data budgets bring their
// texts with their lazily loaded code (features/budgets/texts.ts), so they are typed here only.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN & { budgets: typeof budgetsZhCN } };
  }
}

import 'i18next';
import type { zhCN } from './locales/zh-CN.ts';

// Keys of t() are checked against the Chinese texts, the source language.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
  }
}

import type { zhCN } from './locales/zh-CN.ts';

/** The same tree as the Chinese texts, with any string in each place. */
type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** Shape every language must have; zh-CN is the source of the keys. */
export type Messages = Widen<typeof zhCN>;

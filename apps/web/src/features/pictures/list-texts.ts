import { lazyTexts } from '../../i18n/lazy-texts.ts';

/**
 * Texts of the picture lists and snapshot tasks that come with the photo screens' lazily loaded
 * code (not the first screen's bundle), under `pictureLists`. zh-CN is the source of the keys.
 */
export const pictureListsZhCN = {
  /** A task's rate in the unit that reads naturally. */
  rate: {
    seconds: '每 {{count}} 秒一张',
    minutes: '每 {{count}} 分钟一张',
    hours: '每 {{count}} 小时一张',
  },
  /** One bar of a task's timeline: the shots planned in a stretch of time, counted by state. */
  bucket: '{{from}} – {{to}}：{{counts}}',
  bucketCount: '{{state}} {{count}}',
  separator: '，',
  bucketSize: '每格 {{size}}',
  size: {
    minutes_one: '{{count}} 分钟',
    minutes_other: '{{count}} 分钟',
    hours_one: '{{count}} 小时',
    hours_other: '{{count}} 小时',
    days_one: '{{count}} 天',
    days_other: '{{count}} 天',
  },
  /** Where a picture on shore came from (the spec's two, and stills mode's). */
  origin: {
    manual: '手动抓拍',
    task: '抓拍计划',
    stills: '图片模式',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const pictureListsEn: Widen<typeof pictureListsZhCN> = {
  rate: {
    seconds: 'One every {{count}} s',
    minutes: 'One every {{count}} min',
    hours: 'One every {{count}} h',
  },
  bucket: '{{from}} – {{to}}: {{counts}}',
  bucketCount: '{{state}}: {{count}}',
  separator: ', ',
  bucketSize: 'Each bar: {{size}}',
  size: {
    minutes_one: '{{count}} minute',
    minutes_other: '{{count}} minutes',
    hours_one: '{{count}} hour',
    hours_other: '{{count}} hours',
    days_one: '{{count}} day',
    days_other: '{{count}} days',
  },
  origin: {
    manual: 'Manual snapshot',
    task: 'Snapshot task',
    stills: 'Stills mode',
  },
};

const texts = lazyTexts('pictureLists', pictureListsZhCN, pictureListsEn);

/** Adds the texts to an i18next instance (once). */
export const addPictureListTexts = texts.add;
/** useTranslation, with the picture lists' texts in place. */
export const usePictureListTranslation = texts.useTexts;

/**
 * Texts of a cell's definition choice (issue 19 item 2), merged under `cellDefinition` (see
 * ../../i18n/locales). zh-CN is the source of the keys; en must have the same shape.
 */
export const cellDefinitionZhCN = {
  /** e.g. 最低清晰度：FBB 链路，16 分屏 */
  reason: '{{level}}：{{link}} 链路，{{view}}',
  explicit: '已手动选择，本窗格保持此清晰度',
  level: {
    satellite: '卫星清晰度',
    lowest: '最低清晰度',
    standard: '标准清晰度',
    best: '最佳清晰度',
  },
  view: {
    grid: '{{count}} 分屏',
    fullScreen: '全屏',
  },
  link: {
    VSAT: 'VSAT',
    FBB: 'FBB',
    FOURTHG: '4G',
    IRIDIUM: '铱星',
    AUTO: 'LEO/自动',
    DEFAULT: '未知',
  },
};

/** "Resolution", as the cell's control and notices say it in English. */
export const cellDefinitionEn: typeof cellDefinitionZhCN = {
  reason: '{{level}}: {{link}} link, {{view}}',
  explicit: 'Chosen by you: this cell keeps this resolution',
  level: {
    satellite: 'Satellite resolution',
    lowest: 'Lowest resolution',
    standard: 'Standard resolution',
    best: 'Best resolution',
  },
  view: {
    grid: '{{count}}-cell grid',
    fullScreen: 'full screen',
  },
  link: {
    VSAT: 'VSAT',
    FBB: 'FBB',
    FOURTHG: '4G',
    IRIDIUM: 'Iridium',
    AUTO: 'LEO/auto',
    DEFAULT: 'unknown',
  },
};

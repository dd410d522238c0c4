import { describe, expect, it } from 'vitest';
import type { PurposeUse } from '@ship-cctv/protocol';
import { createI18n } from '../../i18n/index.ts';
import { capOf, percentOf, tightestPurpose } from './budget-figures.ts';
import { budgetsEn, budgetsZhCN } from './locales.ts';
import { addBudgetTexts } from './texts.ts';

type Tree = { readonly [key: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe('data budget texts (loaded with the feature)', () => {
  const zh = flatten(budgetsZhCN);
  const en = flatten(budgetsEn);

  it('has the same keys, no empty text and the same placeholders in both languages', () => {
    expect([...en.keys()].sort()).toEqual([...zh.keys()].sort());
    for (const [key, text] of [...zh, ...en]) expect(text.trim(), key).not.toBe('');
    for (const [key, text] of zh) expect(placeholders(en.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('are added to the app’s i18next instance once the feature loads, in both languages', async () => {
    const i18n = createI18n('zh-CN');
    expect(i18n.exists('budgets.title')).toBe(false);
    addBudgetTexts(i18n);
    addBudgetTexts(i18n);
    expect(i18n.t('budgets.title')).toBe('流量预算');
    expect(i18n.t('app.title')).toBe('船舶远程视频监控');
    await i18n.changeLanguage('en');
    expect(i18n.t('budgets.state.override', { until: '20:00' })).toBe('Over: overridden (until 20:00)');
  });
});

describe('data budget figures', () => {
  const use = (dayBytes: number, dayCapBytes: number | null, monthBytes: number, monthCapBytes: number | null): PurposeUse => ({ dayBytes, dayCapBytes, monthBytes, monthCapBytes, level: 0 });

  it('shows the purpose nearest its cap, by day or month', () => {
    const none = use(0, null, 0, null);
    expect(tightestPurpose({ live: none, playback: none, pictures: none, backfill: none, events: none })).toBeUndefined();
    const picked = tightestPurpose({ live: use(500, 1000, 500, 100_000), playback: use(0, null, 900, 1000), pictures: none, backfill: none, events: none });
    expect(picked).toMatchObject({ purpose: 'playback', share: 90 });
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(5, null)).toBeNull();
  });

  it('leaves an empty or zero cap out (no cap) rather than sending 0', () => {
    expect(capOf(null, 10)).toEqual({ monthMb: 10 });
    expect(capOf(0, null)).toEqual({});
    expect(capOf(0.5, 3)).toEqual({ dayMb: 0.5, monthMb: 3 });
  });
});

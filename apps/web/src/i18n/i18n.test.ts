import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseLanguage, createI18n, detectLanguage, resources, switchLanguage } from './index.ts';

type Tree = { readonly [key: string]: string | Tree };

/** Every leaf as `a.b.c` → text. */
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

describe('i18n resources', () => {
  const zh = flatten(resources['zh-CN'].translation);
  const en = flatten(resources.en.translation);

  it('has every zh-CN key in en and no key only in en', () => {
    expect([...en.keys()].sort()).toEqual([...zh.keys()].sort());
  });

  it('has no empty text', () => {
    for (const [language, texts] of [['zh-CN', zh], ['en', en]] as const) {
      for (const [key, text] of texts) expect(text.trim(), `${language} ${key}`).not.toBe('');
    }
  });

  it('uses the same interpolation variables in both languages', () => {
    for (const [key, text] of zh) expect(placeholders(en.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('uses the spec title in both languages', () => {
    expect(zh.get('app.title')).toBe('船舶远程视频监控');
    expect(en.get('app.title')).toBe('Ship Remote CCTV Monitoring');
  });
});

describe('language choice (spec §1: cookie, then browser, then Chinese)', () => {
  it('takes the cookie over the browser language', () => {
    expect(chooseLanguage({ cookie: 'en', navigator: 'zh-CN' })).toBe('en');
    expect(chooseLanguage({ cookie: 'zh-CN', navigator: 'en-US' })).toBe('zh-CN');
  });

  it('takes the browser language when there is no usable cookie', () => {
    expect(chooseLanguage({ navigator: 'en-GB' })).toBe('en');
    expect(chooseLanguage({ cookie: 'fr', navigator: 'en-US' })).toBe('en');
    expect(chooseLanguage({ cookie: '', navigator: 'zh-Hans-CN' })).toBe('zh-CN');
  });

  it('falls back to Chinese', () => {
    expect(chooseLanguage({})).toBe('zh-CN');
    expect(chooseLanguage({ cookie: 'de', navigator: 'fr-FR' })).toBe('zh-CN');
  });

  it('normalises cookie values written by other portals', () => {
    expect(chooseLanguage({ cookie: 'zh' })).toBe('zh-CN');
    expect(chooseLanguage({ cookie: 'en_US' })).toBe('en');
  });
});

describe('detectLanguage and switchLanguage in the browser', () => {
  afterEach(() => {
    document.cookie = 'language=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    vi.restoreAllMocks();
  });

  it('reads the language cookie before navigator.language', () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('zh-CN');
    expect(detectLanguage()).toBe('zh-CN');
    document.cookie = 'language=en; path=/';
    expect(detectLanguage()).toBe('en');
  });

  it('uses navigator.language without a cookie, else the fallback', () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-US');
    expect(detectLanguage()).toBe('en');
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('ja-JP');
    expect(detectLanguage()).toBe('zh-CN');
  });

  it('switching writes the cookie and changes texts, page language and title', async () => {
    const i18n = createI18n('zh-CN');
    expect(i18n.t('signIn.submit')).toBe('登录');
    expect(document.documentElement.lang).toBe('zh-CN');
    await switchLanguage(i18n, 'en');
    expect(i18n.t('signIn.submit')).toBe('Sign in');
    expect(document.cookie).toContain('language=en');
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe('Ship Remote CCTV Monitoring');
  });
});

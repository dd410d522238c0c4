import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fontsFor, needsCjkFont, resolveFontFile } from '../../src/camera/fonts.ts';

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const WQY = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

describe('font resolver', () => {
  it('prefers DejaVu Sans Mono for the clock and WenQuanYi Micro Hei for CJK names, when installed', () => {
    const latin = resolveFontFile('latin');
    const cjk = resolveFontFile('cjk');
    if (latin !== undefined) expect(existsSync(latin)).toBe(true);
    if (existsSync(DEJAVU)) expect(latin).toBe(DEJAVU);
    else if (existsSync(WQY)) expect(latin).toBe(WQY);
    if (existsSync(WQY)) expect(cjk).toBe(WQY);
    expect(fontsFor('Bridge')).toEqual({ fontFile: latin, nameFontFile: latin });
    expect(fontsFor('前甲板')).toEqual({ fontFile: latin, nameFontFile: cjk });
  });

  it('tells names that need a CJK font', () => {
    expect(needsCjkFont('Engine room 2 – port')).toBe(false);
    expect(needsCjkFont('Ἀθηνᾶ Мостик')).toBe(false);
    expect(needsCjkFont('机舱 1')).toBe(true);
    expect(needsCjkFont('ブリッジ')).toBe(true);
  });
});

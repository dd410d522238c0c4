import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Fonts for the synthetic camera's text. drawtext needs a font file or a fontconfig pattern; a
 * fresh machine may have neither DejaVu nor a CJK font. Preference:
 *
 *   clock and Latin names: DejaVu Sans Mono (Debian: fonts-dejavu-core) → WenQuanYi Micro Hei
 *   CJK camera names:      WenQuanYi Micro Hei (Debian: fonts-wqy-microhei) → DejaVu Sans Mono
 *   neither installed:     undefined, and the builder lets fontconfig pick a "Monospace"/"Sans"
 *
 * Each family is looked for at its Debian path first, then through `fc-list` (other distributions).
 */

interface Family {
  name: string;
  paths: string[];
}

const DEJAVU_MONO: Family = {
  name: 'DejaVu Sans Mono',
  paths: ['/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf', '/usr/share/fonts/TTF/DejaVuSansMono.ttf', '/usr/share/fonts/dejavu/DejaVuSansMono.ttf'],
};
const WQY_MICROHEI: Family = {
  name: 'WenQuanYi Micro Hei',
  paths: ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', '/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc'],
};

export type FontPurpose = 'latin' | 'cjk';

const cache = new Map<FontPurpose, string | undefined>();

function viaFontconfig(family: string): string | undefined {
  try {
    const out = execFileSync('fc-list', ['-f', '%{file}\n', `:family=${family}`], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return out
      .split('\n')
      .map((l) => l.trim())
      .find((f) => f !== '' && existsSync(f));
  } catch {
    return undefined; // no fontconfig tools: fall through to fontconfig inside ffmpeg
  }
}

function locate(family: Family): string | undefined {
  return family.paths.find((p) => existsSync(p)) ?? viaFontconfig(family.name);
}

/** A font file for the purpose, or undefined to let fontconfig choose. Cached per process. */
export function resolveFontFile(purpose: FontPurpose = 'latin'): string | undefined {
  if (cache.has(purpose)) return cache.get(purpose);
  const order = purpose === 'latin' ? [DEJAVU_MONO, WQY_MICROHEI] : [WQY_MICROHEI, DEJAVU_MONO];
  let file: string | undefined;
  for (const family of order) {
    file = locate(family);
    if (file) break;
  }
  cache.set(purpose, file);
  return file;
}

/** Needs a CJK-capable font: any character beyond Latin, Greek, Cyrillic and general punctuation. */
export function needsCjkFont(text: string): boolean {
  return /[^ -\u052f\u1e00-\u206f]/u.test(text);
}

/** The font files a synthetic camera draws its text with (undefined: fontconfig picks one). */
export interface CameraFonts {
  fontFile: string | undefined;
  nameFontFile: string | undefined;
}

/** Fonts for one camera: the clock's, and the name's (CJK-capable when the name needs it). */
export function fontsFor(cameraName: string): CameraFonts {
  const fontFile = resolveFontFile('latin');
  return { fontFile, nameFontFile: needsCjkFont(cameraName) ? resolveFontFile('cjk') : fontFile };
}

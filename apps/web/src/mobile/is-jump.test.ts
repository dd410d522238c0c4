import { describe, expect, it } from 'vitest';
import { readShowsLogout, showsLogout } from './is-jump.ts';

describe('isjump rule (spec §2, §6): the person icon and logout only when isjump is 1', () => {
  it('shows them for 1', () => {
    expect(showsLogout('1')).toBe(true);
    expect(readShowsLogout('newOrgToken=a.b.c; isjump=1; language=en')).toBe(true);
  });

  it('hides them otherwise', () => {
    for (const value of [undefined, '', '0', 'true', '11', 'yes']) expect(showsLogout(value), String(value)).toBe(false);
    expect(readShowsLogout('newOrgToken=a.b.c; language=en')).toBe(false);
    expect(readShowsLogout('notisjump=1')).toBe(false);
  });
});

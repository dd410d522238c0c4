import { COOKIES } from '@ship-cctv/protocol';
import { readCookie } from '../lib/cookies.ts';

/**
 * Spec §2, §6: the person icon (and its logout action sheet) shows only when the isjump cookie is
 * 1, i.e. the session came from another portal through /jump; otherwise that portal owns sign-out.
 */
export function showsLogout(isJumpCookie: string | undefined): boolean {
  return isJumpCookie?.trim() === '1';
}

export function readShowsLogout(cookieString?: string): boolean {
  return showsLogout(readCookie(COOKIES.isJump, cookieString));
}

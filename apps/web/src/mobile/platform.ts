/**
 * iOS or not, decided once from the user agent beside the form factor (app/form-factor.ts): iOS
 * Safari has no Fullscreen API for page elements, so the mobile title bar hides its button there.
 * iPadOS 13+ says "Macintosh" but has touch points.
 */
export function isIOSUserAgent(userAgent: string, maxTouchPoints = 0): boolean {
  return /iPhone|iPad|iPod/i.test(userAgent) || (/Macintosh/i.test(userAgent) && maxTouchPoints > 1);
}

export const IS_IOS: boolean = typeof navigator !== 'undefined' && isIOSUserAgent(navigator.userAgent, navigator.maxTouchPoints);

/**
 * Desktop or mobile, decided once at start from the user agent (spec §1) and passed down, so no
 * component checks the user agent itself.
 */
export type FormFactor = 'desktop' | 'mobile';

/** Spec §1: Android, iPhone, iPad, iPod, Symbian, Windows Phone. */
const MOBILE_USER_AGENT = /Android|iPhone|iPad|iPod|Symbian|Windows Phone/i;

export function formFactorOf(userAgent: string): FormFactor {
  return MOBILE_USER_AGENT.test(userAgent) ? 'mobile' : 'desktop';
}

/** The decision of this page load. */
export const FORM_FACTOR: FormFactor = formFactorOf(typeof navigator === 'undefined' ? '' : navigator.userAgent);

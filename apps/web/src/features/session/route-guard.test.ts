import { describe, expect, it } from 'vitest';
import { decideRoute, sessionEndedTarget } from './route-guard.ts';

const base = { requiresAuth: true, isLogin: false, hasToken: true, validated: true };

describe('route guard (spec §4)', () => {
  it('sends an auth route without a token to /login', () => {
    expect(decideRoute({ ...base, hasToken: false, validated: false })).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('sends /login with a token to /', () => {
    expect(decideRoute({ requiresAuth: false, isLogin: true, hasToken: true, validated: false })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('shows /login, /jump and /repeatLogin without a token', () => {
    expect(decideRoute({ requiresAuth: false, isLogin: true, hasToken: false, validated: false })).toEqual({ kind: 'allow' });
    expect(decideRoute({ requiresAuth: false, isLogin: false, hasToken: false, validated: false })).toEqual({ kind: 'allow' });
  });

  it('validates a token once, then allows', () => {
    expect(decideRoute({ ...base, validated: false })).toEqual({ kind: 'validate' });
    expect(decideRoute(base)).toEqual({ kind: 'allow' });
  });
});

describe('where an ended session goes (spec §8)', () => {
  it('402 (displaced) → /repeatLogin', () => {
    expect(sessionEndedTarget(402, '/live/index')).toBe('/repeatLogin');
    expect(sessionEndedTarget(402, '/repeatLogin')).toBeNull();
  });

  it('401 → /login unless already there', () => {
    expect(sessionEndedTarget(401, '/live/index')).toBe('/login');
    expect(sessionEndedTarget(401, '/login')).toBeNull();
  });
});

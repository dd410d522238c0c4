import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COOKIES, CODES, type UserInfo } from '@ship-cctv/protocol';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { readCookie, writeCookie } from '../../../lib/cookies.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { validationRetryMs } from '../route-guard.ts';
import { GuardedRoute } from './GuardedRoute.tsx';

const USER = { userId: 'u1', userName: 'demo', realName: 'Demo Operator' } as unknown as UserInfo;

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function renderGuarded() {
  writeCookie(COOKIES.token, 'a-token');
  const Waiting = ({ tip }: { tip: string }) => <p>{tip}</p>;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/index']}>
        <Routes>
          <Route path="/index" element={<GuardedRoute kind="auth" Waiting={Waiting}><p>the app</p></GuardedRoute>} />
          <Route path="/login" element={<p>sign in</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStore.clear();
  document.cookie = `${COOKIES.token}=; path=/; max-age=0`;
});

describe('the route guard’s token check', () => {
  it('asks again only when the server did not answer for itself, twice at most', () => {
    expect(validationRetryMs(new ApiError('network', 0, 'no answer'), 1)).toBe(1_000);
    expect(validationRetryMs(new ApiError('timeout', 0, 'no answer'), 2)).toBe(3_000);
    expect(validationRetryMs(new ApiError('http', 502, 'bad gateway', 502), 1)).toBe(1_000);
    expect(validationRetryMs(new ApiError('envelope', 500, 'server error', 500), 1)).toBe(1_000);
    expect(validationRetryMs(new ApiError('network', 0, 'no answer'), 3)).toBeUndefined();
    // The token's own failures: signed out at once.
    expect(validationRetryMs(new ApiError('envelope', CODES.unauthorized, 'bad token', 401), 1)).toBeUndefined();
    expect(validationRetryMs(new ApiError('envelope', CODES.displaced, 'signed in elsewhere', 200), 1)).toBeUndefined();
    expect(validationRetryMs(new Error('token check answered no data'), 1)).toBeUndefined();
  });

  it('keeps the operator signed in through a check that got no answer, asked again a second later', async () => {
    const get = vi.spyOn(apiClient, 'get').mockRejectedValueOnce(new ApiError('network', 0, 'no answer')).mockResolvedValueOnce(USER);
    renderGuarded();
    expect(await screen.findByText('the app', {}, { timeout: 5_000 })).toBeTruthy();
    expect(get).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('where').textContent).toBe('/index');
    expect(readCookie(COOKIES.token)).toBe('a-token');
  });

  it('signs out at once when the server refuses the token', async () => {
    const get = vi.spyOn(apiClient, 'get').mockRejectedValue(new ApiError('envelope', CODES.unauthorized, 'bad token', 401));
    renderGuarded();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    expect(get).toHaveBeenCalledTimes(1);
    expect(readCookie(COOKIES.token)).toBeUndefined();
  });
});

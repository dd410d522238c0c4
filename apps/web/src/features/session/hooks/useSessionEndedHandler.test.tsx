import { Suspense, lazy, type ComponentType } from 'react';
import { act, render, screen } from '@testing-library/react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COOKIES, CODES, type UserInfo } from '@ship-cctv/protocol';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { readCookie, writeCookie } from '../../../lib/cookies.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { GuardedRoute } from '../components/GuardedRoute.tsx';
import { useSessionEndedHandler } from './useSessionEndedHandler.ts';

const USER = { userId: 'u1', userName: 'njzsz', realName: 'Demo Operator' } as unknown as UserInfo;

/** The signals the handler listens to, fired by hand: the API client's 401/402 and STOMP ERRORs. */
function captureSignals() {
  const api: ((error: ApiError) => void)[] = [];
  const stomp: ((code: number) => void)[] = [];
  vi.spyOn(apiClient, 'onSessionEnded').mockImplementation((listener) => {
    api.push(listener);
    return () => undefined;
  });
  vi.spyOn(realtime, 'onSessionEnded').mockImplementation((listener) => {
    stomp.push(listener);
    return () => undefined;
  });
  return {
    /** An API call answered 402: the client deletes the token cookie, then tells the listeners (as api-client.ts does). */
    api402: () => {
      document.cookie = `${COOKIES.token}=; path=/; max-age=0`;
      for (const l of api) l(new ApiError('envelope', CODES.displaced, 'signed in elsewhere', 200));
    },
    /** A call sent once the token cookie was gone: 401. */
    api401: () => {
      for (const l of api) l(new ApiError('envelope', CODES.unauthorized, 'no token', 401));
    },
    stomp402: () => {
      for (const l of stomp) l(CODES.displaced);
    },
  };
}

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function SessionEvents() {
  useSessionEndedHandler();
  return null;
}

/**
 * The app's shape: the handler at the root, an auth route behind the guard, the sign-in route and
 * a repeat-login page whose code is still loading (a lazy chunk, as in the app), so the navigation
 * to it stays a pending transition until the test lets it load.
 */
function renderApp() {
  let loaded: (page: { default: ComponentType }) => void = () => undefined;
  const chunk = new Promise<{ default: ComponentType }>((resolve) => (loaded = resolve));
  const RepeatLogin = lazy(() => chunk);
  const queryClient = new QueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionEvents />
        <Where />
        <Suspense fallback={<p>loading</p>}>
          <Routes>
            <Route path="/login" element={<p>sign-in form</p>} />
            <Route path="/repeatLogin" element={<RepeatLogin />} />
            <Route
              path="/live/index"
              element={
                <GuardedRoute kind="auth" Waiting={() => <p>checking</p>}>
                  <p>live screen</p>
                </GuardedRoute>
              }
            />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </QueryClientProvider>,
  );
  return { loadRepeatLogin: () => loaded({ default: () => <p>signed in elsewhere</p> }) };
}

describe('a session ended elsewhere (several signals)', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    window.history.replaceState(null, '', '/live/index');
    writeCookie(COOKIES.token, 'the-token');
    sessionStore.signedIn(USER);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStore.clear();
  });

  it('a second 402 while the repeat-login page is still loading does not end the session under the signed-in screen (which the guard would send to the sign-in)', async () => {
    const signals = captureSignals();
    const { loadRepeatLogin } = renderApp();
    expect(screen.getByText('live screen')).toBeTruthy();

    // The first 402 starts the way to /repeatLogin; its page's code is still on its way.
    await act(async () => signals.api402());
    expect(window.location.pathname).toBe('/repeatLogin');
    expect(screen.getByTestId('where').textContent).toBe('/live/index');
    // The STOMP ERROR's 402 arrives meanwhile: the rendering on its way to /repeatLogin is no
    // reason to think the user is there (nor to end the session under the signed-in screen).
    await act(async () => signals.stomp402());
    await act(async () => loadRepeatLogin());

    expect(await screen.findByText('signed in elsewhere')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/repeatLogin');
    expect(window.location.pathname).toBe('/repeatLogin');
    expect(screen.queryByText('sign-in form')).toBeNull();
    // Once there, the local session is gone.
    expect(readCookie(COOKIES.token)).toBeUndefined();
    expect(sessionStore.user).toBeNull();
  });

  it('a 401 after arriving at /repeatLogin (a call without the token) leaves the user there', async () => {
    const signals = captureSignals();
    const { loadRepeatLogin } = renderApp();
    loadRepeatLogin();
    await act(async () => signals.stomp402());
    expect(await screen.findByText('signed in elsewhere')).toBeTruthy();
    await act(async () => signals.api401());
    expect(screen.getByTestId('where').textContent).toBe('/repeatLogin');
    expect(screen.getByText('signed in elsewhere')).toBeTruthy();
  });

  it('after signing in again, a later 402 is handled again', async () => {
    const signals = captureSignals();
    const { loadRepeatLogin } = renderApp();
    loadRepeatLogin();
    await act(async () => signals.stomp402());
    expect(await screen.findByText('signed in elsewhere')).toBeTruthy();
    // Signed in again (the sign-in page sets the cookie and the user) and back on the live screen.
    writeCookie(COOKIES.token, 'a-new-token');
    act(() => sessionStore.signedIn(USER));
    await act(async () => {
      window.history.pushState(null, '', '/live/index');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(await screen.findByText('live screen')).toBeTruthy();
    await act(async () => signals.stomp402());
    expect(await screen.findByText('signed in elsewhere')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/repeatLogin');
  });
});

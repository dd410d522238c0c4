import { lazy, Suspense } from 'react';
import type { i18n } from 'i18next';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { useSessionEndedHandler } from '../features/session/index.ts';
import type { RuntimeConfig } from '../lib/runtime-config.ts';
import { MobileJumpPage } from './components/MobileJumpPage.tsx';
import { MobileLoginPage } from './components/MobileLoginPage.tsx';
import { MobileRepeatLoginPage } from './components/MobileRepeatLoginPage.tsx';
import { MobileRouteGuard } from './components/MobileRouteGuard.tsx';
import { MobileShell } from './components/MobileShell.tsx';
import { MobileScreen } from './pages/MobileScreen.tsx';
import { MobileProviders } from './providers.tsx';
import { MOBILE_EVENTS, MOBILE_HOME, MOBILE_PLAYBACK } from './routes.ts';
import { FullPageLoading } from './components/FullPageLoading.tsx';

// Its own chunk, loaded on first visit: the phone's first screen stays within its size budget.
const MobileEventsPage = lazy(() => import('./pages/MobileEventsPage.tsx').then((m) => ({ default: m.MobileEventsPage })));

/** Router basename: the app is served under /monitor/ (spec §2), taken from Vite's `base`. */
const ROUTER_BASENAME = import.meta.env.BASE_URL.replace(/\/+$/, '');

/** Spec §8: a 401/402 anywhere is handled once, at the root, as on the desktop. */
function SessionEvents() {
  useSessionEndedHandler();
  return null;
}

/**
 * The phone and tablet app (spec §1, §2 mobile routes): its own entry, so a phone loads none of
 * the desktop's components. Sessions, language, socket and player are the desktop's.
 */
export function MobileApp({ config, i18n }: { config: RuntimeConfig; i18n: i18n }) {
  return (
    <MobileProviders config={config} i18n={i18n}>
      <BrowserRouter basename={ROUTER_BASENAME}>
        <SessionEvents />
        <Routes>
          <Route path="/login" element={<MobileRouteGuard kind="login"><MobileLoginPage /></MobileRouteGuard>} />
          <Route path="/jump" element={<MobileJumpPage />} />
          <Route path="/repeatLogin" element={<MobileRepeatLoginPage />} />
          <Route element={<MobileRouteGuard kind="auth"><MobileShell /></MobileRouteGuard>}>
            {/* Keyed: each tab its own screen, so leaving a tab stops its video (an unwatched ship sends none). */}
            <Route path={MOBILE_HOME} element={<MobileScreen key="live" mode="live" />} />
            <Route path={MOBILE_PLAYBACK} element={<MobileScreen key="shipPlayback" mode="shipPlayback" />} />
            <Route path={MOBILE_EVENTS} element={<Suspense fallback={<FullPageLoading tip="" />}><MobileEventsPage /></Suspense>} />
          </Route>
          <Route path="*" element={<Navigate to={MOBILE_HOME} replace />} />
        </Routes>
      </BrowserRouter>
    </MobileProviders>
  );
}

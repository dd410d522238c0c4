import { Suspense } from 'react';
import type { i18n } from 'i18next';
import { LIMITS } from '@ship-cctv/protocol';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { FullPageSpin, RouteGuard, useSessionEndedHandler } from '../features/session/index.ts';
import type { RuntimeConfig } from '../lib/runtime-config.ts';
import { CellControlsProvider } from '../shared/player-cell/index.ts';
import { CELL_CONTROLS } from './cell-controls.tsx';
import { DesktopShell } from './layout/DesktopShell.tsx';
import { AppProviders } from './providers.tsx';
import { CarouselPage, EventsPage, JumpPage, LivePreviewPage, LoginPage, RepeatLoginPage, ShipPhotoPage, ShipPlaybackPage, ShorePhotoPage, ShorePlaybackPage } from './routes/lazy-pages.ts';

/** Router basename: the app is served under /monitor/ (spec §2), taken from Vite's `base`. */
export const ROUTER_BASENAME = import.meta.env.BASE_URL.replace(/\/+$/, '');

/** Spec §8: a 401/402 anywhere is handled once, here at the root, whatever screen is showing. */
function SessionEvents() {
  useSessionEndedHandler();
  return null;
}

/** Spec §2 desktop routes. */
function DesktopRoutes() {
  return (
    // While a screen's chunk downloads (the signed-in screens wait inside the shell, under the header).
    <Suspense fallback={<FullPageSpin tip="" />}>
    <Routes>
      <Route path="/login" element={<RouteGuard kind="login"><LoginPage /></RouteGuard>} />
      <Route path="/jump" element={<JumpPage />} />
      <Route path="/repeatLogin" element={<RepeatLoginPage />} />
      <Route element={<RouteGuard kind="auth"><DesktopShell /></RouteGuard>}>
        <Route path="/live" element={<Navigate to="/live/index" replace />} />
        <Route path="/live/index" element={<LivePreviewPage />} />
        <Route path="/live/recordlivevideo" element={<ShipPlaybackPage />} />
        <Route path="/record" element={<Navigate to="/record/video" replace />} />
        <Route path="/record/video" element={<ShorePlaybackPage />} />
        <Route path="/record/photo" element={<ShorePhotoPage />} />
        <Route path="/recordlivephoto" element={<ShipPhotoPage />} />
        <Route path="/carouselConfig" element={<CarouselPage />} />
        <Route path="/events" element={<EventsPage />} />
      </Route>
      <Route path="*" element={<Navigate to="/live" replace />} />
    </Routes>
    </Suspense>
  );
}

/** The desktop app; phones and tablets load the mobile app instead (src/mobile, chosen in main.tsx). */
export function App({ config, i18n }: { config: RuntimeConfig; i18n: i18n }) {
  return (
    <AppProviders config={config} i18n={i18n}>
      <BrowserRouter basename={ROUTER_BASENAME}>
        <SessionEvents />
        {/* Spec §1: the desktop layout is at least 1250 px wide; narrower windows scroll. */}
        <div style={{ minWidth: LIMITS.minWidthDesktopPx }}>
          <CellControlsProvider controls={CELL_CONTROLS}>
            <DesktopRoutes />
          </CellControlsProvider>
        </div>
      </BrowserRouter>
    </AppProviders>
  );
}

import type { i18n } from 'i18next';
import { BrowserRouter, Route, Routes } from 'react-router';
import type { RuntimeConfig } from '../lib/runtime-config.ts';
import { AppProviders } from './providers.tsx';
import { PlaceholderPage } from './routes/PlaceholderPage.tsx';

/** Router basename: the app is served under /monitor/ (spec §2), taken from Vite's `base`. */
export const ROUTER_BASENAME = import.meta.env.BASE_URL.replace(/\/+$/, '');

export function App({ config, i18n }: { config: RuntimeConfig; i18n: i18n }) {
  return (
    <AppProviders config={config} i18n={i18n}>
      <BrowserRouter basename={ROUTER_BASENAME}>
        <Routes>
          {/* Until the real routes of spec §2 arrive, every path shows the placeholder. */}
          <Route path="*" element={<PlaceholderPage />} />
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}

import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { i18n } from 'i18next';
import { FORM_FACTOR } from './app/form-factor.ts';
import { createI18n, detectLanguage } from './i18n/index.ts';
import { apiClient } from './lib/api-client.ts';
import { DEFAULT_RUNTIME_CONFIG, loadRuntimeConfig, type RuntimeConfig } from './lib/runtime-config.ts';

type RenderApp = (config: RuntimeConfig, i18n: i18n) => ReactElement;

/**
 * The desktop or the mobile app (spec §1, decided once from the user agent), each its own chunk:
 * a phone never downloads the desktop's components (antd), a desktop never the phone's.
 */
function loadApp(): Promise<RenderApp> {
  return FORM_FACTOR === 'mobile'
    ? import('./mobile/MobileApp.tsx').then(({ MobileApp }) => (config, i18n) => <MobileApp config={config} i18n={i18n} />)
    : import('./app/App.tsx').then(({ App }) => (config, i18n) => <App config={config} i18n={i18n} />);
}

async function readConfig(): Promise<RuntimeConfig> {
  try {
    return await loadRuntimeConfig();
  } catch (err) {
    // The app can still sign in with the built-in values; the next start reads the server's again.
    console.warn('runtime config unavailable, using built-in defaults', err);
    return DEFAULT_RUNTIME_CONFIG;
  }
}

async function start(): Promise<void> {
  // The app's code and the runtime config download side by side.
  const [renderApp, config] = await Promise.all([loadApp(), readConfig()]);
  const i18n = createI18n(detectLanguage(config.defaultLanguage));
  apiClient.configure({
    baseUrl: config.apiBase,
    timeoutMs: config.httpTimeoutMs,
    // A 429 over a limit reads in the page's language at the moment it comes.
    describeTooMany: (scope, seconds) => i18n.t(scope === 'ship' ? 'requests.tooManyShip' : 'requests.tooManyUser', { seconds }),
  });

  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  createRoot(root).render(<StrictMode>{renderApp(config, i18n)}</StrictMode>);
}

void start();

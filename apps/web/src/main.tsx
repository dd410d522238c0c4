import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createI18n, detectLanguage } from './i18n/index.ts';
import { apiClient } from './lib/api-client.ts';
import { DEFAULT_RUNTIME_CONFIG, loadRuntimeConfig, type RuntimeConfig } from './lib/runtime-config.ts';

async function start(): Promise<void> {
  let config: RuntimeConfig;
  try {
    config = await loadRuntimeConfig();
  } catch (err) {
    // The app can still sign in with the built-in values; the next start reads the server's again.
    console.warn('runtime config unavailable, using built-in defaults', err);
    config = DEFAULT_RUNTIME_CONFIG;
  }
  apiClient.configure({ baseUrl: config.apiBase, timeoutMs: config.httpTimeoutMs });
  const i18n = createI18n(detectLanguage(config.defaultLanguage));

  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App config={config} i18n={i18n} />
    </StrictMode>,
  );
}

void start();

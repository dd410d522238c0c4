import { useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider, unstableSetRender } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RuntimeConfigProvider } from '../shared/runtime-config.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import type { RuntimeConfig } from '../lib/runtime-config.ts';

// antd-mobile 5 renders its imperative pieces (Toast) with React 18's API; give it React 19's root.
unstableSetRender((node, container) => {
  const root = createRoot(container);
  root.render(node);
  return async () => {
    // Unmounting inside another render is refused by React: leave it to the next task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
  };
});

/** antd-mobile follows the i18next language, so one switch changes both. */
function MobileUiProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN}>{children}</ConfigProvider>;
}

export interface MobileProvidersProps {
  config: RuntimeConfig;
  i18n: i18n;
  queryClient?: QueryClient;
  children: ReactNode;
}

/** What a mobile screen may rely on: the desktop's providers without antd. */
export function MobileProviders({ config, i18n, queryClient, children }: MobileProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <RuntimeConfigProvider config={config}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MobileUiProvider>{children}</MobileUiProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </RuntimeConfigProvider>
  );
}

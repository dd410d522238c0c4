import { useState, type ReactNode } from 'react';
import { ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { createQueryClient } from '../lib/query-client.ts';
import { MessageProvider } from '../shared/message.tsx';
import type { RuntimeConfig } from '../lib/runtime-config.ts';
import { RuntimeConfigProvider } from '../shared/runtime-config.tsx';
import { useThemeMode } from './theme.ts';

/** antd follows the i18next language, so one switch changes both; and the day/night theme. */
function AntdProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const mode = useThemeMode();
  return (
    <ConfigProvider
      locale={i18n.language === 'en' ? enUS : zhCN}
      theme={{ algorithm: mode === 'night' ? theme.darkAlgorithm : theme.defaultAlgorithm }}
      // antd puts a space between two Chinese characters in buttons ("登 录"); the texts are written as wanted.
      button={{ autoInsertSpace: false }}
    >
      <MessageProvider>{children}</MessageProvider>
    </ConfigProvider>
  );
}

export interface AppProvidersProps {
  config: RuntimeConfig;
  i18n: i18n;
  queryClient?: QueryClient;
  children: ReactNode;
}

/** Everything a screen may rely on, in one place so tests render screens the way the app does. */
export function AppProviders({ config, i18n, queryClient, children }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <RuntimeConfigProvider config={config}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <AntdProvider>{children}</AntdProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </RuntimeConfigProvider>
  );
}

import { createContext, useContext, type ReactNode } from 'react';
import { message as staticMessage, theme } from 'antd';

export type MessageApi = ReturnType<typeof staticMessage.useMessage>[0];

const MessageContext = createContext<MessageApi>(staticMessage);

/**
 * The toast messages of the desktop app, following ConfigProvider's theme and locale. It stands in
 * for antd's `App`, of which the app used only `message`: `App` also brings `modal` and
 * `notification` (Modal, Skeleton, Notification: ~20 KB gzip the live preview never shows).
 * Like `App`, it sets the text colour and font of what it wraps from the theme.
 */
export function MessageProvider({ children }: { children: ReactNode }) {
  const [api, holder] = staticMessage.useMessage();
  const { token } = theme.useToken();
  return (
    <MessageContext.Provider value={api}>
      <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
        {holder}
        {children}
      </div>
    </MessageContext.Provider>
  );
}

/** The message API (success, error, warning, …); outside MessageProvider antd's static one. */
export function useMessage(): MessageApi {
  return useContext(MessageContext);
}

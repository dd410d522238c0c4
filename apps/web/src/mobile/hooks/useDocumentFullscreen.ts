import { useCallback, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('fullscreenchange', onChange);
  return () => document.removeEventListener('fullscreenchange', onChange);
}

const isFullscreen = () => typeof document !== 'undefined' && document.fullscreenElement !== null && document.fullscreenElement !== undefined;

/** The whole page in fullscreen (title bar button), following exits by the browser or a gesture. */
export function useDocumentFullscreen(): { active: boolean; supported: boolean; enter(): void } {
  const active = useSyncExternalStore(subscribe, isFullscreen, () => false);
  const supported = typeof document !== 'undefined' && typeof document.documentElement.requestFullscreen === 'function' && document.fullscreenEnabled !== false;
  const enter = useCallback(() => {
    // A refusal (no user gesture, an iframe without permission) leaves the page as it was.
    void document.documentElement.requestFullscreen?.().catch(() => undefined);
  }, []);
  return { active, supported, enter };
}

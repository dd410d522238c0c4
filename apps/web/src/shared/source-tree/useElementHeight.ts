import { useCallback, useState } from 'react';

/** The element's content height, kept up to date (the virtual tree needs a height in pixels). */
export function useElementHeight<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [height, setHeight] = useState(0);
  const ref = useCallback((element: T | null) => {
    if (!element) return;
    setHeight(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setHeight(Math.floor(entry.contentRect.height));
    });
    observer.observe(element);
    // React 19 calls the cleanup a ref callback returns when the element goes.
    return () => observer.disconnect();
  }, []);
  return [ref, height];
}

import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// antd's responsive helpers call matchMedia, which jsdom does not implement (node-environment tests have no window).
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// antd measures itself (virtual lists, overflow menus); jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Testing Library unmounts after each test only by itself when test globals are on; they are off here.
afterEach(() => {
  cleanup();
});

// waitFor and findBy* wait for their condition up to 1 s by default. With several test files per
// core an antd page in jsdom can take longer than that to render and fetch (a carousel player's
// first page took over a second with six files at a time on two cores), so they wait up to 5 s: a
// condition that holds comes as soon as it holds, one that never holds still fails.
configure({ asyncUtilTimeout: 5_000 });

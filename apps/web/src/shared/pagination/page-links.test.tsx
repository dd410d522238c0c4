import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Pagination } from 'antd';
import { AppProviders } from '../../app/providers.tsx';
import { createI18n, type Language } from '../../i18n/index.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { usePageLinks } from './page-links.tsx';

function Pages() {
  return <Pagination current={8} pageSize={10} total={500} onChange={() => undefined} itemRender={usePageLinks()} />;
}

describe('page arrows', { timeout: 30_000 }, () => {
  it.each<[Language, string[]]>([
    ['en', ['Previous page', 'Next page', 'Previous 5 pages', 'Next 5 pages']],
    ['zh-CN', ['上一页', '下一页', '向前 5 页', '向后 5 页']],
  ])('have a name and a tooltip in the page language (%s)', (language, names) => {
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <Pages />
      </AppProviders>,
    );
    for (const name of names) {
      const arrow = screen.getByLabelText(name);
      expect(arrow.getAttribute('title'), name).toBe(name);
    }
    expect(screen.getByRole('button', { name: names[0] })).toBeTruthy();
  });
});

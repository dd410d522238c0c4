import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createI18n } from '../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { MobileProviders } from '../providers.tsx';
import { TitleBar } from './TitleBar.tsx';

function renderBar(ios: boolean) {
  return render(
    <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('zh-CN')}>
      <MemoryRouter>
        <TitleBar ios={ios} />
      </MemoryRouter>
    </MobileProviders>,
  );
}

afterEach(() => {
  document.cookie = 'isjump=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  document.cookie = 'language=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('mobile title bar (spec §2)', () => {
  it('shows the product title', () => {
    renderBar(false);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('船舶远程视频监控');
  });

  it('hides the person icon without isjump=1, shows it with, and it opens the logout sheet', async () => {
    const { unmount } = renderBar(false);
    expect(screen.queryByRole('button', { name: '用户' })).toBeNull();
    unmount();
    document.cookie = 'isjump=1; path=/';
    renderBar(false);
    fireEvent.click(screen.getByRole('button', { name: '用户' }));
    expect(await screen.findByRole('option', { name: '退出登录' })).toBeTruthy();
  });

  it('has a settings sheet for everyone: the language changes there; logout is offered only with isjump=1', async () => {
    const { unmount } = renderBar(false);
    fireEvent.click(screen.getByRole('button', { name: '设置' }));
    const sheet = await screen.findByRole('dialog', { name: '设置' });
    expect(within(sheet).queryByRole('button', { name: '退出登录' })).toBeNull();
    fireEvent.click(within(sheet).getByText('English'));
    expect(await screen.findByRole('button', { name: 'Settings' })).toBeTruthy();
    expect(document.cookie).toContain('language=en');
    unmount();
    document.cookie = 'isjump=1; path=/';
    renderBar(false);
    fireEvent.click(screen.getByRole('button', { name: '设置' }));
    expect(await within(await screen.findByRole('dialog', { name: '设置' })).findByRole('button', { name: '退出登录' })).toBeTruthy();
  });

  it('hides the fullscreen button on iOS', () => {
    // jsdom has the Fullscreen API's requestFullscreen only when a test gives it one.
    document.documentElement.requestFullscreen = () => Promise.resolve();
    renderBar(true);
    expect(screen.queryByRole('button', { name: '全屏' })).toBeNull();
  });

  it('shows it elsewhere, unless already fullscreen', () => {
    document.documentElement.requestFullscreen = () => Promise.resolve();
    const { unmount } = renderBar(false);
    expect(screen.getByRole('button', { name: '全屏' })).toBeTruthy();
    unmount();
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => document.documentElement });
    renderBar(false);
    expect(screen.queryByRole('button', { name: '全屏' })).toBeNull();
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
  });
});

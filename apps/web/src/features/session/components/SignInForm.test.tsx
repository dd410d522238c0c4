import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers.tsx';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { SignInForm } from './SignInForm.tsx';

const user = { id: 'u1', username: 'demo', displayName: '演示操作员', role: 'manager', orgIds: ['org1'] };

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'newOrgToken=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

function renderForm(language: Language = 'zh-CN') {
  return render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <SignInForm />
    </AppProviders>,
  );
}

function submit(username: string, password: string, submitLabel = '登录') {
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: submitLabel }));
}

// The first render styles antd's inputs (CSS-in-JS): seconds on a busy machine.
describe('SignInForm', { timeout: 20_000 }, () => {
  it('shows user name, password and submit in Chinese', () => {
    renderForm();
    expect(screen.getByLabelText('用户名')).toHaveProperty('type', 'text');
    expect(screen.getByLabelText('密码')).toHaveProperty('type', 'password');
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
  });

  it('shows the same form in English', () => {
    renderForm('en');
    expect(screen.getByLabelText('User name')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('asks for both fields before calling the server', async () => {
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名', { selector: '[data-field-error]' })).toBeTruthy();
    expect(await screen.findByText('请输入密码', { selector: '[data-field-error]' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signs in, stores the token cookie and shows the display name', async () => {
    fetchMock.mockResolvedValue(
      answer(200, { code: 200, message: 'SUCCESS', data: { token: 'tok.en.1', expiresAt: Date.now() + 3_600_000, user } }),
    );
    renderForm();
    submit('demo', 'demo-pass');
    expect(await screen.findByText('已登录：演示操作员')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/sys/logon');
    expect(JSON.parse(String(init.body))).toEqual({ username: 'demo', password: 'demo-pass' });
    expect(document.cookie).toContain('newOrgToken=tok.en.1');
  });

  it('says the password is wrong on 401', async () => {
    fetchMock.mockResolvedValue(answer(401, { code: 401, message: 'Wrong user name or password', data: null }));
    renderForm();
    submit('demo', 'nope');
    expect((await screen.findByRole('alert')).textContent).toContain('用户名或密码错误');
  });

  it('says the account is locked on 429', async () => {
    fetchMock.mockResolvedValue(answer(429, { code: 429, message: 'Too many failed sign-in attempts', data: null }));
    renderForm();
    submit('demo', 'nope');
    expect((await screen.findByRole('alert')).textContent).toContain('登录失败次数过多');
  });

  it('says the server is unreachable when fetch fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderForm();
    submit('demo', 'demo-pass');
    expect((await screen.findByRole('alert')).textContent).toContain('无法连接服务器');
  });

  it('words errors in English too', async () => {
    fetchMock.mockResolvedValue(answer(401, { code: 401, message: 'Wrong user name or password', data: null }));
    renderForm('en');
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'demo' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong user name or password');
  });
});

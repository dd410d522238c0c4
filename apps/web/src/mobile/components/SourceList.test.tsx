import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createI18n, type Language } from '../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { MobileProviders } from '../providers.tsx';
import { camera, channel, org, ship } from '../test-fleet.ts';
import { SourceList } from './SourceList.tsx';

const star = ship('S1', '蓝海之星', 'BLUE OCEAN STAR');
const tree = { orgShipTreeNodes: [org('blueocean', '蓝海航运', [star])] };

function envelope(data: unknown, status = 200) {
  return new Response(JSON.stringify({ code: status, message: status === 200 ? 'SUCCESS' : 'FAILED', data }), { status, headers: { 'content-type': 'application/json' } });
}

/** Answers the tree and the wait time; the channels as the test says (a promise that may never settle). */
function serve(channels: () => Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url.includes('getOrgShipTreeUnion')) return Promise.resolve(envelope(tree));
      if (url.includes('waitTime')) return Promise.resolve(envelope({ waitTime: 8 }));
      if (url.includes('getChannel/')) return channels();
      return Promise.resolve(envelope(null, 404));
    }),
  );
}

function renderList(language: Language = 'zh-CN') {
  return render(
    <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)}>
      <MemoryRouter>
        <SourceList onLongPress={() => undefined} onTap={() => undefined} />
      </MemoryRouter>
    </MobileProviders>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('mobile source list', () => {
  it('picks the only organisation and ship by itself and lists its channels (spec §2)', async () => {
    serve(() => Promise.resolve(envelope([channel('C1', 'Bridge', [camera('C1-1', 'Bridge')]), channel('C2', 'Stern', [camera('C2-1', 'Stern')])])));
    renderList();
    expect(await screen.findByText('BLUEOCEAN')).toBeTruthy();
    expect(await screen.findByText('BLUE OCEAN STAR 蓝海之星')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Bridge' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stern' })).toBeTruthy();
    // Nothing is live until STOMP says so.
    expect(screen.getByTestId('online-count').textContent).toBe('在线 0/2');
  });

  it('says 正在加载通道... while the channels load', async () => {
    serve(() => new Promise<Response>(() => undefined));
    renderList();
    expect(await screen.findByText('正在加载通道...')).toBeTruthy();
  });

  it('says 暂无通道 for a ship without channels', async () => {
    serve(() => Promise.resolve(envelope([])));
    renderList();
    expect(await screen.findByText('暂无通道')).toBeTruthy();
  });

  it('says 通道加载失败 when they cannot be loaded', async () => {
    serve(() => Promise.resolve(envelope(null, 500)));
    renderList();
    expect(await screen.findByText('通道加载失败', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('words the failure in English', async () => {
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    renderList('en');
    expect(await screen.findByText('Failed to load channels', {}, { timeout: 5000 })).toBeTruthy();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MsePlayer } from '@ship-cctv/player';
import { LINK_POLICY_DEFAULTS, POLICY_LINKS, dest, type LinkPolicyList, type PlayCommand, type ShipConfig } from '@ship-cctv/protocol';
import { AppProviders } from '../../app/providers.tsx';
import { createI18n } from '../../i18n/index.ts';
import { apiClient } from '../../lib/api-client.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { realtime } from '../../lib/realtime/connection.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { PlayerCell } from '../player-cell/PlayerCell.tsx';
import { source as testSource } from '../test-sources.ts';

const model = (id: number, width: number, height: number, frameRate: number, bitrateKbps: number) => ({ id, displayName: `${width}×${height}`, displayNameEn: `${width}×${height}`, width, height, frameRate, bitrateKbps, codec: 'h264' });
const CONFIG: ShipConfig = {
  groupAliasResDTOS: [{ id: 1, displayName: '标准', defaultModelId: 6, models: [model(5, 320, 180, 5, 150), model(6, 640, 360, 10, 400), model(7, 1280, 720, 15, 1200)] }],
  defaultGroupId: 1,
  talk: false,
  audio: false,
};
const defaults = (orgId: string): LinkPolicyList => ({ orgId, policies: POLICY_LINKS.map((linkType) => ({ linkType, ...LINK_POLICY_DEFAULTS[linkType], custom: false, source: 'default' as const })), canEdit: false });

/** Answers the ship's config and the organisation's link policies, each when the test says (or at once). */
function answerApi(opts: { policies?: LinkPolicyList; config?: ShipConfig; hold?: boolean } = {}) {
  const pending: (() => void)[] = [];
  vi.spyOn(apiClient, 'get').mockImplementation((path: string) => {
    // The api client answers the envelope's data: the ship list's is { data: config } (spec §7), the policies' the list.
    const answer = path.includes('shipGroup/ship/list') ? { data: opts.config ?? CONFIG } : path.includes('/cctv/linkPolicy/') ? (opts.policies ?? defaults('blueocean')) : undefined;
    if (answer === undefined) return new Promise(() => undefined);
    if (!opts.hold) return Promise.resolve(answer as never);
    return new Promise((resolve) => pending.push(() => resolve(answer as never)));
  });
  return { release: (n: number) => pending.splice(0, n).forEach((r) => r()) };
}

let stomp: FakeStompClient;
let stopWatching: () => void;
const link = (status: string) => act(() => stomp.publish(dest.shipStatus(testSource(1).shipName), { status, quality: 80 }));
const templatesPlayed = (play: { mock: { calls: unknown[][] } }) => play.mock.calls.map((c) => (c[0] as PlayCommand).templateId);
const reason = () => screen.getByRole('region').querySelector('[data-definition-reason]')?.getAttribute('data-definition-reason');

function renderCell(gridSize: number, language: 'en' | 'zh-CN' = 'en', cameraN = 1) {
  const queryClient = createQueryClient();
  const ui = (n: number, cam: number) => (
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={queryClient}>
      <PlayerCell key={cam} source={testSource(cam)} gridSize={n} onClose={() => undefined} />
    </AppProviders>
  );
  const view = render(ui(gridSize, cameraN));
  return { ...view, resize: (n: number, cam = cameraN) => view.rerender(ui(n, cam)) };
}

describe('a live cell picks its definition by grid size, full screen and link (issue 19 items 2 and 4)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stomp = new FakeStompClient();
    realtime.store.connected(stomp);
    // The source tree watches the ship's status all along (a cell that comes and goes does not lose it).
    stopWatching = realtime.store.subscribe(dest.shipStatus(testSource(1).shipName), () => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    stopWatching();
    realtime.store.reset();
  });

  it('asks for the lowest in a 16-cell grid, the standard in a 4-cell one and the best full screen over 4G, and says why', async () => {
    answerApi();
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    const cell = renderCell(16);
    // The ship's status arrives before its templates and policies (as the source tree has it already).
    link('FOURTHG');
    // The first test loads the rules' chunk (an import() with the policies): seconds on a busy machine.
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5]), { timeout: 10_000 });
    expect(reason()).toBe('Lowest resolution: 4G link, 16-cell grid');

    cell.resize(4);
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5, 6]));
    expect(reason()).toBe('Standard resolution: 4G link, 4-cell grid');

    // Full screen (the browser says which element is).
    const region = screen.getByRole('region');
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => region });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5, 6, 7]));
    expect(reason()).toBe('Best resolution: 4G link, full screen');
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5, 6, 7, 6]));
  });

  it('follows the ship from port 4G to FBB at sea without anyone touching it, in both languages', async () => {
    answerApi();
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    const cell = renderCell(4, 'zh-CN');
    // The ship's status arrives before its templates and policies (as the source tree has it already).
    link('FOURTHG');
    await waitFor(() => expect(templatesPlayed(play)).toEqual([6]));
    expect(reason()).toBe('标准清晰度：4G 链路，4 分屏');
    link('FBB');
    await waitFor(() => expect(templatesPlayed(play)).toEqual([6, 5]));
    expect(reason()).toBe('最低清晰度：FBB 链路，4 分屏');
    cell.resize(16);
    expect(reason()).toBe('最低清晰度：FBB 链路，16 分屏');
    // Same resolution: the stream is not asked again.
    expect(templatesPlayed(play)).toEqual([6, 5]);
  });

  it("keeps the operator's pick for the cell across grid sizes and links, until the cell gets another channel", async () => {
    answerApi();
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    const cell = renderCell(16);
    // The ship's status arrives before its templates and policies (as the source tree has it already).
    link('FOURTHG');
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5]));
    // The narrow cell's definition menu (a 16-cell grid's cell is narrow).
    fireEvent.click(screen.getByRole('button', { name: 'Resolution' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /1280×720/ }));
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5, 7]));
    expect(reason()).toBe('Chosen by you: this cell keeps this resolution');

    cell.resize(4);
    link('FBB');
    cell.resize(9);
    expect(templatesPlayed(play)).toEqual([5, 7]);
    expect(reason()).toBe('Chosen by you: this cell keeps this resolution');

    // Another channel in the cell (the grid keys cells by camera): the policy again, over FBB.
    cell.resize(9, 2);
    await waitFor(() => expect(templatesPlayed(play)).toEqual([5, 7, 5]));
    expect(reason()).toBe('Lowest resolution: FBB link, 9-cell grid');
  });

  it('plays nothing until both the templates and the policies are known, then once, at the right definition', async () => {
    const api = answerApi({ hold: true });
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    renderCell(4);
    // The ship's status arrives before its templates and policies (as the source tree has it already).
    link('FOURTHG');
    await waitFor(() => expect(vi.mocked(apiClient.get).mock.calls.length).toBeGreaterThanOrEqual(2));
    act(() => api.release(1));
    // One answer is not enough: no stream at a definition the cell would leave at once.
    await act(() => Promise.resolve());
    expect(play).not.toHaveBeenCalled();
    act(() => api.release(1));
    await waitFor(() => expect(templatesPlayed(play)).toEqual([6]));
  });

  it('on a ship without a default template asks for nothing in particular and gives no reason (the server says 无默认清晰度模板)', async () => {
    answerApi({ config: { ...CONFIG, defaultGroupId: null } });
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    renderCell(16);
    link('FBB');
    await waitFor(() => expect(templatesPlayed(play)).toEqual([undefined]));
    expect(reason()).toBe('');
  });

  it("follows the organisation's own policy", async () => {
    const policies = defaults('blueocean');
    policies.policies = policies.policies.map((p) => (p.linkType === 'VSAT' ? { ...p, manyCells: 'standard', custom: true, source: 'own' as const } : p));
    answerApi({ policies });
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    renderCell(16);
    // The ship's status arrives before its templates and policies (as the source tree has it already).
    link('VSAT');
    await waitFor(() => expect(templatesPlayed(play)).toEqual([6]));
    expect(reason()).toBe('Standard resolution: VSAT link, 16-cell grid');
  });

  it.each([
    ['en', 'Bad network: switched to the lowest resolution automatically', 'Network recovered: back to the chosen resolution'],
    ['zh-CN', '网络不佳，已自动切换到最低清晰度', '网络已恢复，已切换回所选清晰度'],
  ] as const)('names the definition that plays, not the one asked for, and its warning follows the stream (%s)', async (language, lowest, restored) => {
    answerApi();
    let emit: ((type: 'codec' | 'notice', payload: unknown) => void) | undefined;
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    renderCell(1, language);
    link('FOURTHG');
    // Run alone, this test loads the rules' chunk (an import() with the policies): seconds on a busy machine.
    await waitFor(() => expect(templatesPlayed(play)).toEqual([6]), { timeout: 10_000 });
    const region = screen.getByRole('region');
    const codec = (templateId: number, width: number, height: number) => ({ type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width, height, frameRate: 5, templateId });
    // The ship's link was judged congested: shore plays the lowest instead of the standard asked for.
    act(() => {
      emit?.('notice', { type: 'notice', code: 'lowestDefinition', templateId: 5 });
      emit?.('codec', codec(5, 320, 180));
    });
    await waitFor(() => expect(region.textContent).toContain(lowest));
    expect(region.querySelector('.ant-select')?.textContent).toContain('320×180');
    expect(region.querySelector('.ant-select')?.textContent).not.toContain('640×360');
    // Back at the standard: the label says so, and the warning goes with the lowest.
    act(() => {
      emit?.('notice', { type: 'notice', code: 'definitionRestored', templateId: 6 });
      emit?.('codec', codec(6, 640, 360));
    });
    await waitFor(() => expect(region.querySelector('.ant-select')?.textContent).toContain('640×360'));
    expect(region.textContent).not.toContain(lowest);
    expect(region.textContent).toContain(restored);
  });
});

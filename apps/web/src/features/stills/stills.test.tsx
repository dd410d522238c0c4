import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MsePlayer, type MsePlayerEventMap } from '@ship-cctv/player';
import { LINK_POLICY_DEFAULTS, POLICY_LINKS, dest, type LinkPolicyList, type PlayCommand, type ShipConfig, type StillAnswer } from '@ship-cctv/protocol';
import { AppProviders } from '../../app/providers.tsx';
import { createI18n } from '../../i18n/index.ts';
import { apiClient } from '../../lib/api-client.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { realtime } from '../../lib/realtime/connection.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { CellControlsProvider, PlayerCell } from '../../shared/player-cell/index.ts';
import { source as testSource } from '../../shared/test-sources.ts';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { STILLS_SURFACE } from './components/StillsSurface.tsx';
import { stillsEn, stillsZhCN } from './locales.ts';
import { ageOf, bytesPerHour, costSample, stillsModeFor } from './still-mode.ts';

// The policies' rules arrive in a chunk of their own: on a busy machine the first cell waits for them.
configure({ asyncUtilTimeout: 10_000 });

const model = (id: number, width: number, height: number) => ({ id, displayName: `${width}×${height}`, displayNameEn: `${width}×${height}`, width, height, frameRate: 10, bitrateKbps: 300, codec: 'h264' });
const CONFIG: ShipConfig = {
  groupAliasResDTOS: [{ id: 1, displayName: '标准', defaultModelId: 6, models: [model(5, 320, 180), model(6, 640, 360), model(7, 1280, 720)] }],
  defaultGroupId: 1,
  talk: false,
  audio: false,
};
const POLICIES: LinkPolicyList = { orgId: 'blueocean', canEdit: false, policies: POLICY_LINKS.map((linkType) => ({ linkType, ...LINK_POLICY_DEFAULTS[linkType], custom: false, source: 'default' as const })) };
const SOURCE = testSource(1);
const T0 = Date.parse('2026-11-27T12:00:00Z');

function still(over: Partial<StillAnswer> = {}): StillAnswer {
  return {
    cameraId: SOURCE.cameraId,
    shipId: SOURCE.shipId,
    shipName: SOURCE.shipName,
    linkType: 'IRIDIUM',
    everySeconds: 30,
    picture: { pictureId: 'pic00000001', takenAt: T0 - 12_000, bytes: 10_000, width: 320, height: 180 },
    recentBytes: [10_000],
    took: false,
    offline: false,
    picturesBudgetUsedUp: false,
    nextInMs: 30_000,
    ...over,
  };
}

/** The ship's config and the policies at once; stills answers in turn (the last one again). */
function answerApi(stills: StillAnswer[]) {
  vi.spyOn(apiClient, 'get').mockImplementation((path: string) => {
    if (path.includes('shipGroup/ship/list')) return Promise.resolve({ data: CONFIG } as never);
    if (path.includes('/cctv/linkPolicy/')) return Promise.resolve(POLICIES as never);
    return new Promise(() => undefined);
  });
  let n = 0;
  return vi.spyOn(apiClient, 'post').mockImplementation((path: string) => {
    if (!path.startsWith('/cctv/stills/')) return new Promise(() => undefined);
    const answer = stills[Math.min(n++, stills.length - 1)];
    return Promise.resolve(answer as never);
  });
}

/** play() as far as the cell sees it: the player is playing (so a cover has a stream to stop). */
function playing(this: MsePlayer): void {
  (this as unknown as { session: { setState(state: string): void } }).session.setState('playing');
}

let stomp: FakeStompClient;
let stopWatching: () => void;
const link = (status: string) => act(() => stomp.publish(dest.shipStatus(SOURCE.shipName), { status, quality: 80 }));
const stillCalls = (post: { mock: { calls: unknown[][] } }) => post.mock.calls.filter((c) => String(c[0]).startsWith('/cctv/stills/'));
const surface = () => screen.getByRole('region').querySelector('[data-stills-mode]');

function renderCell(language: 'en' | 'zh-CN' = 'en', gridSize = 16) {
  const queryClient = createQueryClient();
  const ui = (n: number) => (
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={queryClient}>
      <CellControlsProvider controls={[STILLS_SURFACE]}>
        <PlayerCell source={SOURCE} gridSize={n} onClose={() => undefined} />
      </CellControlsProvider>
    </AppProviders>
  );
  const view = render(ui(gridSize));
  return { ...view, resize: (n: number) => view.rerender(ui(n)) };
}

describe('stills mode: which mode a cell is in', () => {
  const policies = { IRIDIUM: { stills: true, stillsEverySeconds: 30 }, FBB: { stills: false, stillsEverySeconds: 10 }, DEFAULT: { stills: false, stillsEverySeconds: 10 } };
  const grid = { gridSize: 16, fullScreen: false };
  const base = { policies, policiesFailed: false, link: 'IRIDIUM', view: grid, refusal: undefined, operatorChoseVideo: false };

  it('follows the policy of the ship’s link for a grid cell, video full screen, outside a grid and once the operator chose it', () => {
    expect(stillsModeFor(base)).toEqual({ kind: 'stills', because: 'policy', everySeconds: 30, link: 'IRIDIUM' });
    // IRIDIUM1 reads as Iridium.
    expect(stillsModeFor({ ...base, link: 'IRIDIUM1' })).toMatchObject({ kind: 'stills', link: 'IRIDIUM' });
    expect(stillsModeFor({ ...base, link: 'FBB' })).toEqual({ kind: 'video', canGoBack: false });
    expect(stillsModeFor({ ...base, view: { gridSize: 16, fullScreen: true } })).toEqual({ kind: 'video', canGoBack: false });
    expect(stillsModeFor({ ...base, view: undefined })).toEqual({ kind: 'video', canGoBack: false });
    expect(stillsModeFor({ ...base, operatorChoseVideo: true })).toEqual({ kind: 'video', canGoBack: true });
    // A switch to video means nothing on a link without stills: no way "back".
    expect(stillsModeFor({ ...base, link: 'FBB', operatorChoseVideo: true })).toEqual({ kind: 'video', canGoBack: false });
  });

  it('waits for the policies and the link, plays video when the policies fail, and shows pictures when the budget leaves nothing else', () => {
    expect(stillsModeFor({ ...base, policies: undefined })).toEqual({ kind: 'undecided' });
    expect(stillsModeFor({ ...base, link: undefined })).toEqual({ kind: 'undecided' });
    expect(stillsModeFor({ ...base, policies: undefined, policiesFailed: true })).toEqual({ kind: 'video', canGoBack: false });
    expect(stillsModeFor({ ...base, link: 'FBB', refusal: 'budgetStills', operatorChoseVideo: true, view: { gridSize: 1, fullScreen: true } })).toEqual({ kind: 'stills', because: 'budget', everySeconds: 10, link: 'FBB' });
    expect(stillsModeFor({ ...base, link: 'FBB', refusal: 'budgetBlocked' })).toEqual({ kind: 'video', canGoBack: false });
  });

  it('estimates the cost an hour from the last pictures, and says how old a picture is', () => {
    expect(bytesPerHour([10_000], 30)).toBe(1_200_000);
    expect(bytesPerHour([8_000, 12_000, 10_000], 10)).toBe(3_600_000);
    expect(bytesPerHour([], 30)).toBeUndefined();
    expect(costSample(still({ recentBytes: [], pending: { pictureId: 'p0000001', requestedAt: T0, state: 'taken', bytes: 9_000 } }))).toEqual([9_000]);
    expect(costSample(still({ recentBytes: [], picture: undefined }))).toEqual([]);
    expect(ageOf(T0 - 12_400, T0)).toEqual({ unit: 'seconds', value: 12 });
    expect(ageOf(T0 - 185_000, T0)).toEqual({ unit: 'minutes', value: 3 });
    expect(ageOf(T0 - 2 * 3_600_000, T0)).toEqual({ unit: 'hours', value: 2 });
  });

  it('has every text in both languages with the same placeholders', () => {
    const flat = (o: object, p = ''): [string, string][] => Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[`${p}${k}`, v] as [string, string]] : flat(v as object, `${p}${k}.`)));
    const zh = new Map(flat(stillsZhCN));
    const en = new Map(flat(stillsEn));
    expect([...en.keys()]).toEqual([...zh.keys()]);
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of zh) expect(vars(en.get(key) ?? ''), key).toEqual(vars(text));
  });
});

describe('stills mode in a live cell (issue 19 item 3)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stomp = new FakeStompClient();
    realtime.store.connected(stomp);
    stopWatching = realtime.store.subscribe(dest.shipStatus(SOURCE.shipName), () => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    stopWatching();
    realtime.store.reset();
  });

  it('shows the latest still of an Iridium ship with its mode, age and cost, and starts no stream', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T0);
    const post = answerApi([still()]);
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    link('IRIDIUM');
    renderCell('en');
    await waitFor(() => expect(surface()).not.toBeNull());
    await waitFor(() => expect(screen.getByText('Stills every 30 s')).toBeTruthy());
    expect(screen.getByText('12 s ago')).toBeTruthy();
    expect(screen.getByText('≈ 1.20 MB/h')).toBeTruthy();
    // The picture: its thumbnail first (the full one loads behind it).
    const img = screen.getByRole('img', { name: SOURCE.title });
    expect(img.getAttribute('src')).toBe('/cctvv3-server/v3/th/getById/pic00000001?thumb=1');
    // The cell asked for a still at the definition its view would play (the lowest in a 16-cell grid).
    expect(stillCalls(post)[0]).toEqual([`/cctv/stills/${SOURCE.cameraId}`, { templateId: 5 }, expect.anything()]);
    expect(play).not.toHaveBeenCalled();
  });

  it('says the same in Chinese', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T0);
    answerApi([still({ picture: { pictureId: 'pic00000001', takenAt: T0 - 185_000, bytes: 10_000, width: 320, height: 180 } })]);
    link('IRIDIUM');
    renderCell('zh-CN');
    await waitFor(() => expect(screen.getByText('每 30 秒一张图片')).toBeTruthy());
    expect(await screen.findByText('3 分钟前')).toBeTruthy();
    expect(screen.getByText('≈ 1.20 MB/小时')).toBeTruthy();
    expect(screen.getByRole('button', { name: '切换为视频' })).toBeTruthy();
  });

  it.each<['en' | 'zh-CN', string, string]>([
    ['en', 'timeout', 'No new picture: the ship did not answer'],
    ['zh-CN', 'busy', '拍摄失败：船舶正忙'],
    ['en', 'cameraOffline', 'No new picture: camera offline'],
  ])('says why the last take failed from its code, asking the ship in the words every feature shares (%s, %s)', async (language, code, text) => {
    vi.spyOn(Date, 'now').mockReturnValue(T0);
    answerApi([still({ pending: { pictureId: 'pic00000002', requestedAt: T0 - 5_000, state: 'failed', code, message: 'what shore said in English' } })]);
    link('IRIDIUM');
    renderCell(language);
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('says that no new still comes while the pictures budget is used up, and keeps the last one', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(T0);
    answerApi([still({ picturesBudgetUsedUp: true })]);
    link('IRIDIUM');
    renderCell('en');
    expect(await screen.findByText('Pictures budget used up: no new stills')).toBeTruthy();
    expect(screen.getByRole('img', { name: SOURCE.title }).getAttribute('data-picture-id')).toBe('pic00000001');
  });

  it('asks again when the answer says, on the clock; a new picture on its way shows its state', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: T0 });
    const post = answerApi([
      still({ nextInMs: 30_000 }),
      still({ took: true, nextInMs: 5_000, pending: { pictureId: 'pic00000002', requestedAt: T0 + 30_000, state: 'asked' } }),
      still({ nextInMs: 5_000, pending: { pictureId: 'pic00000002', requestedAt: T0 + 30_000, state: 'taken', bytes: 11_000 } }),
      still({ picture: { pictureId: 'pic00000002', takenAt: T0 + 31_000, bytes: 11_000, width: 320, height: 180 }, recentBytes: [11_000, 10_000], nextInMs: 29_000 }),
    ]);
    link('IRIDIUM');
    renderCell('en');
    const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    await advance(100);
    expect(stillCalls(post)).toHaveLength(1);
    await advance(29_000);
    expect(stillCalls(post)).toHaveLength(1);
    await advance(1_000);
    expect(stillCalls(post)).toHaveLength(2);
    expect(screen.getByText('Taking a new picture…')).toBeTruthy();
    await advance(5_000);
    expect(stillCalls(post)).toHaveLength(3);
    expect(screen.getByText('New picture on its way…')).toBeTruthy();
    // Shore has it (STOMP /pictures/{ship}): asked at once, not at the next tick.
    act(() => stomp.publish(dest.pictures(SOURCE.shipName), { event: 'stored', pictureId: 'pic00000002', shipId: SOURCE.shipId, total: 11_000 }));
    await advance(10);
    expect(stillCalls(post)).toHaveLength(4);
    expect(screen.getByRole('img', { name: SOURCE.title }).getAttribute('data-picture-id')).toBe('pic00000002');
    expect(screen.getByText('≈ 1.26 MB/h')).toBeTruthy();
    expect(screen.getByText('4 s ago')).toBeTruthy();
    await advance(28_000);
    expect(stillCalls(post)).toHaveLength(4);
    await advance(1_000);
    expect(stillCalls(post)).toHaveLength(5);
  });

  it("switches to video on the operator's word, keeps it across links, and goes back to stills", async () => {
    const post = answerApi([still()]);
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(playing);
    const stop = vi.spyOn(MsePlayer.prototype, 'stop');
    link('IRIDIUM');
    const cell = renderCell('en');
    fireEvent.click(await screen.findByRole('button', { name: 'Switch to video' }));
    await waitFor(() => expect(play).toHaveBeenCalledTimes(1));
    expect((play.mock.calls[0]?.[0] as PlayCommand).templateId).toBe(5);
    expect(surface()).toBeNull();

    // FBB at sea (no stills), then Iridium again: the cell keeps playing video, asked once.
    link('FBB');
    link('IRIDIUM');
    cell.resize(9);
    expect(surface()).toBeNull();
    expect(play).toHaveBeenCalledTimes(1);

    // Back to stills from the title bar: the stream stops.
    const asked = stillCalls(post).length;
    fireEvent.click(screen.getByRole('button', { name: 'Switch to stills' }));
    await waitFor(() => expect(surface()).not.toBeNull());
    expect(stop).toHaveBeenCalled();
    await waitFor(() => expect(stillCalls(post).length).toBeGreaterThan(asked));
  });

  it('follows the ship from VSAT video to Iridium stills and back, and plays video full screen', async () => {
    answerApi([still()]);
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(playing);
    const stop = vi.spyOn(MsePlayer.prototype, 'stop');
    link('VSAT');
    renderCell('en');
    await waitFor(() => expect(play).toHaveBeenCalledTimes(1));
    expect(surface()).toBeNull();
    link('IRIDIUM');
    await waitFor(() => expect(surface()).not.toBeNull());
    expect(stop).toHaveBeenCalled();
    link('VSAT');
    await waitFor(() => expect(play).toHaveBeenCalledTimes(2));
    expect(surface()).toBeNull();

    link('IRIDIUM');
    await waitFor(() => expect(surface()).not.toBeNull());
    const region = screen.getByRole('region');
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => region });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    await waitFor(() => expect(play).toHaveBeenCalledTimes(3));
    // Full screen plays the policy's full-screen definition (Iridium: the standard).
    expect((play.mock.calls[2]?.[0] as PlayCommand).templateId).toBe(6);
    expect(surface()).toBeNull();
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    await waitFor(() => expect(surface()).not.toBeNull());
  });

  it('shows pictures only, with no way to video, when shore refuses live video for the budget', async () => {
    answerApi([still({ linkType: 'VSAT', everySeconds: 10, recentBytes: [10_000] })]);
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      const emit = (this as unknown as { emit: (type: 'error', payload: MsePlayerEventMap['error']) => void }).emit.bind(this);
      setTimeout(() => emit('error', { kind: 'server', code: 'budgetStills', message: 'pictures only' }), 0);
    });
    link('VSAT');
    renderCell('en');
    await waitFor(() => expect(surface()?.getAttribute('data-stills-mode')).toBe('budget'));
    expect(await screen.findByText('Pictures only: the live data budget is used up')).toBeTruthy();
    expect(screen.getByText('≈ 3.60 MB/h')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Switch to video' })).toBeNull();
    // The refusal's own message is not drawn over the picture.
    expect(screen.queryByText("The ship's live data budget is used up: pictures only")).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MsePlayer } from '@ship-cctv/player';
import { LINK_POLICY_DEFAULTS, POLICY_LINKS, dest, type PlayCommand, type ShipConfig } from '@ship-cctv/protocol';
import { createI18n } from '../../i18n/index.ts';
import { apiClient } from '../../lib/api-client.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { realtime } from '../../lib/realtime/connection.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { source as testSource } from '../../shared/test-sources.ts';
import { FakeStompClient } from '../../test/fake-stomp.ts';
import { MobileProviders } from '../providers.tsx';
import { LiveVideo } from './LiveVideo.tsx';

const model = (id: number, width: number, height: number) => ({ id, displayName: `${width}×${height}`, width, height, frameRate: 10, bitrateKbps: width, codec: 'h264' });
const CONFIG: ShipConfig = {
  groupAliasResDTOS: [{ id: 1, displayName: '标准', defaultModelId: 6, models: [model(5, 320, 180), model(6, 640, 360), model(7, 1280, 720)] }],
  defaultGroupId: 1,
  talk: false,
  audio: false,
};
const POLICIES = { orgId: 'blueocean', policies: POLICY_LINKS.map((linkType) => ({ linkType, ...LINK_POLICY_DEFAULTS[linkType], custom: false, source: 'default' as const })), canEdit: false };

/** The phone's one video is a 1-cell view for the link policy (issue 19), unless the operator picked a definition. */
describe('mobile live video: definition by the link policy', { timeout: 30_000 }, () => {
  let stomp: FakeStompClient;
  let stopWatching: () => void;
  const source = testSource(1);
  beforeEach(() => {
    stomp = new FakeStompClient();
    realtime.store.connected(stomp);
    stopWatching = realtime.store.subscribe(dest.shipStatus(source.shipName), () => undefined);
    vi.spyOn(apiClient, 'get').mockImplementation((path: string) =>
      path.includes('shipGroup/ship/list') ? Promise.resolve({ data: CONFIG } as never) : path.includes('/cctv/linkPolicy/') ? Promise.resolve(POLICIES as never) : new Promise(() => undefined),
    );
  });
  afterEach(() => {
    vi.restoreAllMocks();
    stopWatching();
    realtime.store.reset();
  });

  const renderVideo = (templateId: number | undefined, language: 'en' | 'zh-CN') =>
    render(
      <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <LiveVideo source={source} templateId={templateId} onClose={() => undefined} />
      </MobileProviders>,
    );
  const played = (play: { mock: { calls: unknown[][] } }) => play.mock.calls.map((c) => (c[0] as PlayCommand).templateId);

  it('plays the standard definition over 4G and the lowest over FBB, and says why', async () => {
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    act(() => stomp.publish(dest.shipStatus(source.shipName), { status: 'FOURTHG', quality: 90 }));
    renderVideo(undefined, 'zh-CN');
    await waitFor(() => expect(played(play)).toEqual([6]));
    expect(screen.getByText('标准清晰度：4G 链路，1 分屏')).toBeTruthy();
    act(() => stomp.publish(dest.shipStatus(source.shipName), { status: 'FBB', quality: 60 }));
    await waitFor(() => expect(played(play)).toEqual([6, 5]));
    expect(screen.getByText('最低清晰度：FBB 链路，1 分屏')).toBeTruthy();
  });

  it.each([
    ['en', 'This browser cannot decode AV1 video'],
    ['zh-CN', '当前浏览器无法解码 AV1 视频'],
  ] as const)('names a codec the phone cannot decode instead of a black picture (%s)', async (language, text) => {
    let emit: ((type: string, payload: unknown) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    act(() => stomp.publish(dest.shipStatus(source.shipName), { status: 'FBB', quality: 60 }));
    renderVideo(undefined, language);
    await waitFor(() => expect(emit).toBeDefined());
    act(() => {
      emit?.('codec', { type: 'codec', mime: 'video/mp4; codecs="av01.0.04M.08"', width: 320, height: 180, frameRate: 3, templateId: 5 });
      emit?.('error', { kind: 'unsupported', message: 'This browser cannot play video/mp4; codecs="av01.0.04M.08"' });
      emit?.('state', { state: 'error', previous: 'starting' });
    });
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it("keeps the operator's pick from the options dialog whatever the link", async () => {
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    act(() => stomp.publish(dest.shipStatus(source.shipName), { status: 'FBB', quality: 60 }));
    renderVideo(7, 'en');
    await waitFor(() => expect(played(play)).toEqual([7]));
    expect(screen.getByText('Chosen by you: this cell keeps this resolution')).toBeTruthy();
  });

  it.each([
    ['en', 'Continue watching', 'the video closes in'],
    ['zh-CN', '继续观看', '视频将在'],
  ] as const)('clears the watching limit banner the moment Continue is tapped (%s)', async (language, button, countdown) => {
    let emit: ((type: string, payload: unknown) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    const sent = vi.spyOn(MsePlayer.prototype, 'continueWatching');
    act(() => stomp.publish(dest.shipStatus(source.shipName), { status: 'FOURTHG', quality: 90 }));
    const { container } = renderVideo(undefined, language);
    await waitFor(() => expect(emit).toBeDefined());
    act(() => emit?.('state', { state: 'playing', previous: 'starting' }));
    act(() => emit?.('status', { type: 'status', state: 'limit', countdownSeconds: 30 }));
    expect(container.textContent).toContain(countdown);
    fireEvent.click(screen.getByRole('button', { name: button }));
    // Gone with the tap, before any word from the server.
    expect(container.textContent).not.toContain(countdown);
    expect(sent).toHaveBeenCalledTimes(1);
  });

  for (const [language, mode, toVideo] of [
    ['zh-CN', '每 30 秒一张图片', '切换为视频'],
    ['en', 'Stills every 30 s', 'Switch to video'],
  ] as const) {
    it(`shows stills where the link policy says so (Iridium), as the desktop does, and video once switched (${language})`, async () => {
      const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
      act(() => stomp.publish(dest.shipStatus(source.shipName), { status: 'IRIDIUM', quality: 40 }));
      const { container } = renderVideo(undefined, language);
      expect(await screen.findByText(mode, {}, { timeout: 10_000 })).toBeTruthy();
      expect(container.querySelector('[data-stills-mode="policy"]')).not.toBeNull();
      expect(play).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole('button', { name: toVideo }));
      await waitFor(() => expect(play).toHaveBeenCalled());
      expect(container.querySelector('[data-stills-mode]')).toBeNull();
    });
  }
});

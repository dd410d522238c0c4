import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MsePlayer, type MsePlayerEventMap } from '@ship-cctv/player';
import { AppProviders } from '../../app/providers.tsx';
import { createQueryClient } from '../../lib/query-client.ts';
import { createI18n } from '../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { apiClient } from '../../lib/api-client.ts';
import { type CellControlProps, CellControlsProvider } from './cell-controls.tsx';
import { source as testSource } from '../test-sources.ts';
import { PlayerCell } from './PlayerCell.tsx';
import { realtime } from '../../lib/realtime/index.ts';

afterEach(() => vi.restoreAllMocks());

/** What a PTZ or talk feature would add: a control that needs to know the cell's channel. */
function TalkButton({ source, getPopupContainer }: CellControlProps) {
  return (
    <button type="button" data-testid="talk" data-camera={source.cameraId} data-inside={String(getPopupContainer().getAttribute('role'))}>
      talk
    </button>
  );
}
function PtzPad({ source }: CellControlProps) {
  return <div data-testid="ptz">{source.title}</div>;
}
/** What stills mode does: covers the cell with a picture and a "switch to video" button in its bottom caption. */
function StillsCover({ onCover }: CellControlProps) {
  const [on, setOn] = useState(true);
  useEffect(() => onCover?.(on), [on, onCover]);
  return on ? (
    <button type="button" onClick={() => setOn(false)}>
      Switch to video
    </button>
  ) : null;
}

describe('PlayerCell', { timeout: 30_000 }, () => {
  it("draws the controls features add, in the title bar and over the picture, each given the cell's channel", async () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    const source = testSource(1);
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <CellControlsProvider
          controls={[
            { id: 'talk', placement: 'bar', Component: TalkButton },
            { id: 'ptz', placement: 'overlay', Component: PtzPad },
          ]}
        >
          <PlayerCell source={source} onClose={() => undefined} />
        </CellControlsProvider>
      </AppProviders>,
    );
    const talk = await screen.findByTestId('talk');
    expect(talk.dataset.camera).toBe(source.cameraId);
    // Its popups go inside the cell (the region), so they show in full screen too.
    expect(talk.dataset.inside).toBe('region');
    const region = screen.getByRole('region');
    expect(region.querySelector('[data-cell-slot] [data-testid="ptz"]')?.textContent).toBe(source.title);
    // The bar control sits with the cell's own secondary buttons (behind "more" in a narrow cell)…
    expect(talk.parentElement?.contains(screen.getByRole('button', { name: 'Playback info' }))).toBe(true);
    // …while full screen and close stay in the bar whatever the width, outside that group.
    expect(talk.parentElement?.contains(screen.getByRole('button', { name: 'Close' }))).toBe(false);
    expect(talk.parentElement?.contains(screen.getByRole('button', { name: 'Fullscreen' }))).toBe(false);
  });

  it('draws no slot when no feature adds a control', () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <PlayerCell source={testSource(1)} onClose={() => undefined} />
      </AppProviders>,
    );
    expect(screen.getByRole('region').querySelector('[data-cell-slot]')).toBeNull();
  });

  it("sends a carousel's id and definition with the play command, and has no close button without onClose", async () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    const source = testSource(2);
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <PlayerCell source={source} carouselId="car00001" templateId={7} />
      </AppProviders>,
    );
    await waitFor(() => expect(play).toHaveBeenCalledWith({ type: 'play', mode: 'live', cameraId: source.cameraId, templateId: 7, carouselId: 'car00001' }));
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('plays a live cell as before: no carousel id, the ship’s default definition', async () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    const play = vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(() => undefined);
    const source = testSource(3);
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <PlayerCell source={source} onClose={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(play).toHaveBeenCalledWith({ type: 'play', mode: 'live', cameraId: source.cameraId }));
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });

  it.each([
    ['en', 'Video codec: AV1', 'This browser cannot decode AV1 video'],
    ['zh-CN', '视频编码：AV1', '当前浏览器无法解码 AV1 视频'],
  ] as const)('says which codec plays, and names a codec this browser cannot decode instead of a black cell (%s)', async (language, playing, cannot) => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    let emit: ((type: string, payload: unknown) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <PlayerCell source={testSource(6)} onClose={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(emit).toBeDefined());
    act(() => emit?.('codec', { type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width: 320, height: 180, frameRate: 3, templateId: 11 }));
    expect(screen.getByRole('region').querySelector('[data-codec]')?.textContent).toBe('H.264');
    act(() => emit?.('codec', { type: 'codec', mime: 'video/mp4; codecs="av01.0.04M.08"', width: 320, height: 180, frameRate: 3, templateId: 12 }));
    expect(screen.getByTitle(playing).textContent).toBe('AV1');
    act(() => {
      emit?.('error', { kind: 'unsupported', message: 'This browser cannot play video/mp4; codecs="av01.0.04M.08"' });
      emit?.('state', { state: 'error', previous: 'starting' });
    });
    expect(screen.getByRole('alert').textContent).toContain(cannot);
  });

  it.each([
    ['en', 'Video codec: H.264 (the camera sends H.265; the ship transcodes it)', "Video codec: H.265 (the camera's own stream, not transcoded on the ship)", 'This browser cannot decode H.265 video'],
    ['zh-CN', '视频编码：H.264（摄像机为 H.265，由船端转码）', '视频编码：H.265（摄像机原始码流，船端不转码）', '当前浏览器无法解码 H.265 视频'],
  ] as const)('says whether an H.265 camera plays as it is or transcoded on the ship, and names H.265 it cannot decode (%s)', async (language, transcoded, asSent, cannot) => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    let emit: ((type: string, payload: unknown) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <PlayerCell source={testSource(6)} onClose={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(emit).toBeDefined());
    act(() => emit?.('codec', { type: 'codec', mime: 'video/mp4; codecs="avc1.42c01e"', width: 320, height: 240, frameRate: 10, templateId: 6, cameraCodec: 'h265', transcoded: true }));
    expect(screen.getByTitle(transcoded).textContent).toBe('H.265→H.264');
    act(() => emit?.('codec', { type: 'codec', mime: 'video/mp4; codecs="hvc1.1.6.L60.90"', width: 320, height: 240, frameRate: 10, templateId: 6, cameraCodec: 'h265', transcoded: false }));
    expect(screen.getByTitle(asSent).textContent).toBe('H.265');
    act(() => {
      emit?.('error', { kind: 'unsupported', message: 'This browser cannot play video/mp4; codecs="hvc1.1.6.L60.90"' });
      emit?.('state', { state: 'error', previous: 'starting' });
    });
    expect(screen.getByRole('alert').textContent).toContain(cannot);
  });

  it('has a mute button and, unmuted, a volume slider only when the stream has sound; it starts muted', async () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    let emitCodec: ((mime: string) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      const emit = (this as unknown as { emit: (type: 'codec', payload: MsePlayerEventMap['codec']) => void }).emit.bind(this);
      emitCodec = (mime) => emit('codec', { type: 'codec', mime, width: 320, height: 180, frameRate: 10, templateId: 1 });
    });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <PlayerCell source={testSource(4)} onClose={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(emitCodec).toBeDefined());
    act(() => emitCodec?.('video/mp4; codecs="avc1.42c01e"'));
    expect(screen.queryByRole('button', { name: 'Unmute' })).toBeNull();

    act(() => emitCodec?.('video/mp4; codecs="avc1.42c01e,mp4a.40.2"'));
    const video = screen.getByRole('region').querySelector('video') as HTMLVideoElement;
    const unmute = await screen.findByRole('button', { name: 'Unmute' });
    expect(video.muted).toBe(true);
    expect(screen.queryByRole('slider')).toBeNull();
    fireEvent.click(unmute);
    expect(video.muted).toBe(false);
    expect(video.volume).toBeCloseTo(0.8);
    // The slider's code is loaded on the first unmute (SoundControl), so it shows a moment later.
    const slider = await screen.findByRole('slider');
    fireEvent.keyDown(slider, { key: 'ArrowLeft', keyCode: 37, which: 37 });
    expect(video.volume).toBeCloseTo(0.79);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(video.muted).toBe(true);
    expect(screen.queryByRole('slider')).toBeNull();
  });

  it.each([
    ['en', 'Continue watching', 'the video closes in', 'Continue did not get through'],
    ['zh-CN', '继续观看', '视频将在', '继续观看未生效'],
  ] as const)('clears the watching limit banner the moment Continue is clicked, and brings it back saying so when the countdown goes on (%s)', async (language, button, countdown, failed) => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    let emit: ((type: string, payload: unknown) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    const sent = vi.spyOn(MsePlayer.prototype, 'continueWatching');
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <PlayerCell source={testSource(5)} onClose={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(emit).toBeDefined());
    const tick = (seconds: number) => act(() => emit?.('status', { type: 'status', state: 'limit', countdownSeconds: seconds }));
    act(() => emit?.('state', { state: 'playing', previous: 'starting' }));
    tick(30);
    const region = screen.getByRole('region');
    expect(region.textContent).toContain(countdown);
    fireEvent.click(screen.getByRole('button', { name: button }));
    // Gone with the click, before any word from the server.
    expect(region.textContent).not.toContain(countdown);
    expect(sent).toHaveBeenCalledTimes(1);
    // The server's countdown goes on: Continue did not reach it.
    tick(29);
    expect(region.textContent).toContain(countdown);
    expect(region.textContent).toContain(failed);
  });

  it.each([
    ['en', 'Camera not sending'],
    ['zh-CN', '摄像机无视频信号'],
  ] as const)('says "camera not sending" while the camera\'s live status says so, and clears it when the camera is back (%s)', async (language, text) => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    let emit: ((type: string, payload: unknown) => void) | undefined;
    vi.spyOn(MsePlayer.prototype, 'play').mockImplementation(function (this: MsePlayer) {
      emit = (this as unknown as { emit: (type: string, payload: unknown) => void }).emit.bind(this);
    });
    // The tab's STOMP connection, as a fake that lets the test deliver the camera's status.
    const deliver = new Map<string, (message: { body: string }) => void>();
    realtime.store.connected({ connected: true, subscribe: (destination, callback) => (deliver.set(destination, callback), { unsubscribe: () => deliver.delete(destination) }) });
    onTestFinished(() => realtime.store.reset());
    const source = { ...testSource(8), instanceId: 'instance-8' };
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <PlayerCell source={source} onClose={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(emit).toBeDefined());
    const status = (online: boolean) => act(() => deliver.get('/mediaList/instance-8')?.({ body: JSON.stringify({ sourceId: source.cameraId, status: online ? 'ONLINE' : 'OFFLINE' }) }));
    act(() => emit?.('state', { state: 'playing', previous: 'starting' }));
    // The ship's link is up: the camera alone is silent.
    act(() => deliver.get(`/shipStatus/${source.shipName}`)?.({ body: JSON.stringify({ status: 'VSAT', quality: 80 }) }));
    status(true);
    const region = screen.getByRole('region');
    expect(region.textContent).not.toContain(text);
    status(false);
    expect(region.textContent).toContain(text);
    status(true);
    expect(region.textContent).not.toContain(text);
  });

  it("moves the controls over the picture (the PTZ pad) to the top while stills cover the cell, off the caption's switch-to-video button", async () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <CellControlsProvider
          controls={[
            { id: 'ptz', placement: 'overlay', Component: PtzPad },
            { id: 'stills', placement: 'surface', Component: StillsCover },
          ]}
        >
          <PlayerCell source={testSource(6)} onClose={() => undefined} />
        </CellControlsProvider>
      </AppProviders>,
    );
    const slot = () => screen.getByTestId('ptz').closest('[data-cell-slot]');
    await waitFor(() => expect(slot()?.getAttribute('data-cell-slot')).toBe('top'));
    fireEvent.click(screen.getByRole('button', { name: 'Switch to video' }));
    await waitFor(() => expect(slot()?.getAttribute('data-cell-slot')).toBe('bottom'));
  });

  it('a click in the cell selects it (where a channel opened into a full grid goes); the selected cell is marked', () => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    const onSelect = vi.fn();
    const ui = (selected: boolean) => (
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n('en')} queryClient={createQueryClient()}>
        <PlayerCell source={testSource(7)} onClose={() => undefined} selected={selected} onSelect={onSelect} />
      </AppProviders>
    );
    const view = render(ui(false));
    const region = screen.getByRole('region');
    expect(region.hasAttribute('data-selected')).toBe(false);
    fireEvent.pointerDown(region.querySelector('video') as HTMLVideoElement);
    expect(onSelect).toHaveBeenCalledWith(testSource(7).cameraId);
    view.rerender(ui(true));
    expect(screen.getByRole('region').hasAttribute('data-selected')).toBe(true);
  });

  it.each([
    ['en', 'More actions', 'Close', 'Fullscreen'],
    ['zh-CN', '更多操作', '关闭', '全屏'],
  ] as const)('"more" opens the secondary controls of a narrow cell; full screen and close stay in the bar (%s)', async (language, more, close, full) => {
    vi.spyOn(apiClient, 'get').mockImplementation(() => new Promise(() => undefined));
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <CellControlsProvider controls={[{ id: 'talk', placement: 'bar', Component: TalkButton }]}>
          <PlayerCell source={testSource(8)} onClose={() => undefined} />
        </CellControlsProvider>
      </AppProviders>,
    );
    const group = (await screen.findByTestId('talk')).closest('[data-cell-more]');
    expect(group?.getAttribute('data-cell-more')).toBe('closed');
    const moreButton = screen.getByRole('button', { name: more });
    expect(moreButton.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(moreButton);
    expect(group?.getAttribute('data-cell-more')).toBe('open');
    expect(moreButton.getAttribute('aria-expanded')).toBe('true');
    // The talk control is the same element (not drawn again): a talk in progress survives the panel.
    expect(group?.contains(screen.getByTestId('talk'))).toBe(true);
    expect(group?.contains(screen.getByRole('button', { name: close }))).toBe(false);
    expect(group?.contains(screen.getByRole('button', { name: full }))).toBe(false);
    // The title names the channel and, in its tooltip, the ship too.
    expect(screen.getByTitle(`${testSource(8).title} · ${testSource(8).shipDisplayName}`).textContent).toContain(testSource(8).title);
  });
});

import type { TFunction } from 'i18next';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../shared/runtime-config.tsx';
import type { PlayableSource } from '../../shared/playable-source.ts';
import { createLivePlayer, useMsePlayer } from '../../shared/player-cell/index.ts';
import { useNow } from '../../shared/player-cell/index.ts';
import { mediaSocketUrl } from '../../shared/player-cell/index.ts';
import { bannerFor, needsClock, overlayFor, type Overlay } from '../../shared/player-cell/index.ts';
import { soundCodecOf } from '../../shared/player-cell/index.ts';
import { dest } from '@ship-cctv/protocol';
import { type MediaListState, useDestination, useShipStatus } from '../../lib/realtime/index.ts';
import { useCellDefinition, useLinkPolicies } from '../../shared/cell-definition/index.ts';
import { MobileSound } from './MobileSound.tsx';
import { MobilePtzPad } from '../../features/ptz/index.ts';
import { MobileTalkButton } from '../../features/talk/index.ts';
import styles from '../mobile.module.css';
import { VideoFrame, type FrameOverlay } from './VideoFrame.tsx';

const PHONE_VIEW = { gridSize: 1, fullScreen: false } as const;

/**
 * Stills mode, as on the desktop: a ship whose link policy says stills shows its camera's latest
 * picture, refreshed, with a switch to video. Loaded when a live video first opens, so the phone's
 * first screen does not carry it.
 */
const StillsSurface = lazy(() => import('../../features/stills/cell-control.ts').then((m) => ({ default: m.STILLS_SURFACE.Component })));

/** Live video of one camera at a definition (undefined: the ship's default), with the desktop's players. */
export function LiveVideo({ source, templateId, onClose }: { source: PlayableSource; templateId: number | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const { mediaPath } = useRuntimeConfig();
  const videoRef = useRef<HTMLVideoElement>(null);
  const url = mediaSocketUrl(mediaPath, window.location);
  // The phone shows one video: a 1-cell view for the link policy, unless the operator picked a definition.
  const definition = useCellDefinition(source, PHONE_VIEW, templateId);
  const policies = useLinkPolicies(source.orgId);
  // No stream until stills mode has said whether it shows the pictures instead.
  const [covered, setCovered] = useState<boolean>();
  const [barSlot, setBarSlot] = useState<HTMLElement | null>(null);
  const frameRef = useRef<HTMLSpanElement>(null);
  const ready = definition.ready && covered === false;
  // The desktop's player: frames painted by the page where the phone's browser decodes them
  // (Android Chrome), the media element elsewhere (Safari, Firefox); its code loads on first use.
  const { player, view, replay, continueWatching } = useMsePlayer(videoRef, url, source.cameraId, definition.templateId, source.waitTime, undefined, ready, createLivePlayer);
  const { linkType } = useShipStatus(source.shipName);
  const now = useNow(needsClock(view, performance.now()));
  // The browser refused to start muted video without a gesture: this tap is the gesture.
  const clickToPlay = useCallback(() => void videoRef.current?.play().catch(() => undefined), []);

  const cameraStatus = useDestination<MediaListState>(dest.mediaList(source.instanceId ?? source.shipName))?.get(source.cameraId);
  const overlay = covered ? ({ kind: 'none' } as const) : overlayFor(view, now, linkType === 'OFFLINE', cameraStatus?.online === false);
  const actions = {
    replay: { label: t('playerCell.replay'), run: replay },
    continue: { label: t('playerCell.continue'), run: continueWatching },
    clickToPlay: { label: t('playerCell.clickToPlay'), run: clickToPlay },
  };
  return (
    <VideoFrame
      source={source}
      videoRef={videoRef}
      state={view.state}
      overlay={frameOverlay(overlay, t, actions)}
      banner={covered ? undefined : bannerFor(view, now)}
      surface={
        <Suspense fallback={null}>
          <StillsSurface
            source={source}
            getPopupContainer={() => frameRef.current ?? document.body}
            view={PHONE_VIEW}
            templateId={definition.templateId}
            refusal={view.error?.kind === 'server' ? view.error.code : undefined}
            policies={policies.isError ? null : policies.data?.byLink}
            onCover={setCovered}
            bar={barSlot}
          />
        </Suspense>
      }
      onClose={onClose}
      onContinue={continueWatching}
      barExtra={
        <span className={styles.frameExtras} ref={frameRef}>
          {/* Stills mode's "back to stills" button, once the operator switched to video. */}
          <span ref={setBarSlot} className={styles.frameSlot} />
          {definition.reason && !covered ? (
            <small className={styles.frameReason} data-definition-reason={definition.reason} data-frame-text="" title={definition.reason}>
              {definition.reason}
            </small>
          ) : null}
          <MobileTalkButton source={source} />
          {soundCodecOf(view.codec?.mime) ? <MobileSound videoRef={videoRef} player={player} /> : null}
        </span>
      }
      // While pictures show, the PTZ pad would lie over their caption and its switch to video.
      footer={covered ? undefined : <MobilePtzPad source={source} />}
    />
  );
}

type Translate = TFunction<'translation', undefined>;

/** The live cell's overlay (shared/player-cell/player-view.ts) in words. */
function frameOverlay(overlay: Overlay, t: Translate, actions: Record<'replay' | 'continue' | 'clickToPlay', { label: string; run(): void }>): FrameOverlay {
  if (overlay.kind === 'none') return overlay;
  if (overlay.kind === 'busy') {
    return { kind: 'busy', text: overlay.text === 'waiting' ? t('playerCell.waiting', { seconds: overlay.seconds ?? 0 }) : t(`playerCell.${overlay.text}`) };
  }
  return {
    kind: 'message',
    tone: overlay.tone,
    // "Click to play" says it on its button.
    text: overlay.text === 'clickToPlay' ? undefined : overlay.text === 'unsupportedCodec' ? t('playerCell.unsupportedCodec', { codec: overlay.codec ?? '?' }) : t(`playerCell.${overlay.text}`),
    ...(overlay.hint ? { hint: t(`playerCell.${overlay.hint}`) } : {}),
    ...(overlay.action ? { action: actions[overlay.action] } : {}),
  };
}

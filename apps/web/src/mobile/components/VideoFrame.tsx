import type { ReactNode, RefObject } from 'react';
import { Button, NoticeBar, SpinLoading } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { PlayableSource } from '../../shared/playable-source.ts';
import type { Banner } from '../../shared/player-cell/index.ts';
import styles from '../mobile.module.css';

/** What covers the picture, its texts already in the user's language. */
export type FrameOverlay =
  | { kind: 'none' }
  | { kind: 'busy'; text: string }
  | { kind: 'message'; tone: 'error' | 'warning' | 'info'; text: string | undefined; hint?: string; action?: { label: string; run(): void } };

export interface VideoFrameProps {
  source: PlayableSource;
  videoRef: RefObject<HTMLVideoElement | null>;
  state: string;
  overlay: FrameOverlay;
  banner: Banner | undefined;
  onClose(): void;
  onContinue(): void;
  /** Playback controls under the picture (ship-end playback). */
  footer?: ReactNode;
  /** Controls in the bar before the close button (live sound). */
  barExtra?: ReactNode;
  /** What may show instead of the video, under the bar (stills). */
  surface?: ReactNode;
}

/**
 * A playing source on the phone: its title and a close button over the picture, what covers the
 * picture while there is none (progress, or why not and a big button for what to do), and the
 * watch-limit and network notices as a notice bar (spec §8, §9).
 */
export function VideoFrame({ source, videoRef, state, overlay, banner, onClose, onContinue, footer, barExtra, surface }: VideoFrameProps) {
  const { t } = useTranslation();
  return (
    <div className={styles.frame} data-camera-id={source.cameraId} data-state={state}>
      <video ref={videoRef} className={styles.video} muted playsInline aria-label={source.title} />
      {surface}
      <div className={styles.frameBar} data-frame-bar="">
        <span className={styles.frameTitle} data-frame-title="">
          <span data-frame-text="">{source.title}</span>
          <small data-frame-text="">{source.shipDisplayName}</small>
        </span>
        {barExtra}
        <button type="button" className={styles.iconButton} aria-label={t('mobile.video.close')} onClick={onClose}>
          <CloseOutline />
        </button>
      </div>
      <OverlayView overlay={overlay} />
      {banner ? (
        <div className={styles.frameBanner} role="status" aria-live="polite">
          <NoticeBar
            color={banner.kind === 'definitionRestored' ? 'info' : 'alert'}
            wrap
            content={banner.kind === 'limitCountdown' ? t('playerCell.limitCountdown', { seconds: banner.seconds }) : t(`playerCell.${banner.kind}`)}
            extra={
              banner.kind === 'limitCountdown' ? (
                <Button size="mini" color="primary" onClick={onContinue}>
                  {t('playerCell.continue')}
                </Button>
              ) : null
            }
          />
        </div>
      ) : null}
      {footer ? <div className={styles.frameFooter}>{footer}</div> : null}
    </div>
  );
}

function OverlayView({ overlay }: { overlay: FrameOverlay }) {
  if (overlay.kind === 'none') return null;
  if (overlay.kind === 'busy') {
    return (
      <div className={styles.overlay} role="status" aria-live="polite">
        <SpinLoading color="white" style={{ '--size': '28px' }} />
        <span>{overlay.text}</span>
      </div>
    );
  }
  return (
    <div className={styles.overlay} data-tone={overlay.tone} role={overlay.tone === 'error' ? 'alert' : 'status'}>
      {overlay.text ? <span>{overlay.text}</span> : null}
      {overlay.hint ? <small>{overlay.hint}</small> : null}
      {overlay.action ? (
        <Button color="primary" size="middle" onClick={overlay.action.run}>
          {overlay.action.label}
        </Button>
      ) : null}
    </div>
  );
}

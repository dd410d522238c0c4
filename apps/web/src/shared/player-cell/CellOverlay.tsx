import { LoadingOutlined } from '@ant-design/icons';
import { Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Banner, Overlay } from './player-view.ts';
import styles from './PlayerCell.module.css';

export interface CellOverlayProps {
  overlay: Overlay;
  onReplay(): void;
  onContinue(): void;
  onClickToPlay(): void;
}

/** What covers the picture while there is none: progress, or why not and what to do. */
export function CellOverlay({ overlay, onReplay, onContinue, onClickToPlay }: CellOverlayProps) {
  const { t } = useTranslation();
  if (overlay.kind === 'none') return null;
  if (overlay.kind === 'busy') {
    const text = overlay.text === 'waiting' ? t('playerCell.waiting', { seconds: overlay.seconds ?? 0 }) : t(`playerCell.${overlay.text}`);
    return (
      <div className={styles.overlay} role="status" aria-live="polite">
        {/* White on the dark veil: the theme's blue spinner is all but invisible on black video. */}
        <Spin size="small" indicator={<LoadingOutlined spin className={styles.spinner} />} />
        <span>{text}</span>
      </div>
    );
  }
  const action =
    overlay.action === 'replay'
      ? { label: t('playerCell.replay'), run: onReplay }
      : overlay.action === 'continue'
        ? { label: t('playerCell.continue'), run: onContinue }
        : overlay.action === 'clickToPlay'
          ? { label: t('playerCell.clickToPlay'), run: onClickToPlay }
          : undefined;
  return (
    <div className={styles.overlay} data-tone={overlay.tone} role={overlay.tone === 'error' ? 'alert' : 'status'}>
      <span>{overlay.text === 'clickToPlay' ? null : overlay.text === 'unsupportedCodec' ? t('playerCell.unsupportedCodec', { codec: overlay.codec ?? '?' }) : t(`playerCell.${overlay.text}`)}</span>
      {overlay.hint ? <span className={styles.hint}>{t(`playerCell.${overlay.hint}`)}</span> : null}
      {action ? (
        <Button size="small" type="primary" onClick={action.run}>
          {action.label}
        </Button>
      ) : null}
    </div>
  );
}

/** A note over a picture that keeps playing. */
export function CellBanner({ banner, onContinue }: { banner: Banner; onContinue(): void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.banner} role="status" aria-live="polite">
      {banner.kind === 'limitCountdown' ? (
        <>
          <span>
            {t('playerCell.limitCountdown', { seconds: banner.seconds })}
            {banner.failed ? <span className={styles.continueFailed}>{t('playerCell.continueFailed')}</span> : null}
          </span>
          <Button size="small" type="primary" onClick={onContinue}>
            {t('playerCell.continue')}
          </Button>
        </>
      ) : (
        <span>{t(`playerCell.${banner.kind}`)}</span>
      )}
    </div>
  );
}

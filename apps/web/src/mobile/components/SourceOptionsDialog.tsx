import type { CSSProperties, ReactNode } from 'react';
import { Dialog } from 'antd-mobile';
import type { PlayableSource } from '../../shared/playable-source.ts';
import styles from '../mobile.module.css';

export interface SourceOptionsDialogProps {
  title: string;
  /** The camera the options are for: named under the title. */
  source: PlayableSource;
  cancelText: string;
  playText: string;
  playDisabled: boolean;
  onPlay(): void;
  onClose(): void;
  bodyStyle?: CSSProperties;
  /** The fields. */
  children: ReactNode;
}

/** The frame of the options dialogs before a camera plays (live and playback): title, camera, fields, cancel and play. */
export function SourceOptionsDialog({ title, source, cancelText, playText, playDisabled, onPlay, onClose, bodyStyle, children }: SourceOptionsDialogProps) {
  return (
    <Dialog
      visible
      aria-label={title}
      title={title}
      closeOnMaskClick
      onClose={onClose}
      {...(bodyStyle ? { bodyStyle } : {})}
      content={
        <div className={styles.dialogBody}>
          <div className={styles.dialogSubtitle}>
            {source.title} · {source.shipDisplayName}
          </div>
          {children}
        </div>
      }
      actions={[
        [
          { key: 'cancel', text: cancelText, onClick: onClose },
          { key: 'play', text: playText, bold: true, disabled: playDisabled, onClick: onPlay },
        ],
      ]}
    />
  );
}

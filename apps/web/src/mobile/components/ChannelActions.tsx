import { ActionSheet } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { PlayableSource } from '../../shared/playable-source.ts';
import type { PlayMode } from '../play-session.ts';

/** Spec §2: what a long press on a channel offers — live video or ship-end video playback. */
export function ChannelActions({ source, onChoose, onClose }: { source: PlayableSource | undefined; onChoose(mode: PlayMode, source: PlayableSource): void; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <ActionSheet
      visible={source !== undefined}
      extra={source ? t('mobile.actions.title', { channel: source.title }) : null}
      cancelText={t('mobile.actions.cancel')}
      actions={[
        { key: 'live', text: t('mobile.actions.live'), onClick: () => source && onChoose('live', source) },
        { key: 'shipPlayback', text: t('mobile.actions.playback'), onClick: () => source && onChoose('shipPlayback', source) },
      ]}
      closeOnAction
      onClose={onClose}
    />
  );
}

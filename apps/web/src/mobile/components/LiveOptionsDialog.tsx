import { useState } from 'react';
import { DotLoading, Selector } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { PlayableSource } from '../../shared/playable-source.ts';
import { definitionChoices, definitionName, useShipConfig } from '../../shared/player-cell/index.ts';
import { chooseLiveDefinition } from '../play-session.ts';
import { SourceOptionsDialog } from './SourceOptionsDialog.tsx';
import styles from '../mobile.module.css';

export interface LiveOptionsDialogProps {
  source: PlayableSource;
  onPlay(templateId: number | undefined): void;
  onClose(): void;
}

/**
 * Live video options: the definition (the ship's definition templates, its default preselected).
 * As on the desktop, a ship without a default template plays only once one is chosen: otherwise
 * "无默认清晰度模板" shows and nothing starts (spec §5).
 */
export function LiveOptionsDialog({ source, onPlay, onClose }: LiveOptionsDialogProps) {
  const { t, i18n } = useTranslation();
  const config = useShipConfig(source.orgId, source.shipId);
  const { choices, defaultModelId } = config.data ? definitionChoices(config.data) : { choices: [], defaultModelId: undefined };
  const [picked, setPicked] = useState<number>();
  const [refused, setRefused] = useState(false);
  const value = picked ?? defaultModelId;

  const play = () => {
    const decision = chooseLiveDefinition({ picked, defaultModelId, configKnown: config.isSuccess });
    if (decision.kind === 'refuse') {
      setRefused(true);
      return;
    }
    onPlay(decision.templateId);
  };

  return (
    <SourceOptionsDialog
      title={t('mobile.liveOptions.title')}
      source={source}
      cancelText={t('mobile.liveOptions.cancel')}
      playText={t('mobile.liveOptions.play')}
      playDisabled={config.isLoading}
      onPlay={play}
      onClose={onClose}
    >
      <div className={styles.fieldLabel}>{t('mobile.liveOptions.definition')}</div>
      {config.isLoading ? (
        <span role="status">
          <DotLoading /> {t('mobile.liveOptions.loading')}
        </span>
      ) : config.isError ? (
        <span className={styles.error}>{t('mobile.liveOptions.loadFailed')}</span>
      ) : (
        <div role="group" aria-label={t('mobile.liveOptions.definition')}>
          <Selector<number>
            columns={1}
            value={value === undefined ? [] : [value]}
            options={choices.map((choice) => ({
              value: choice.model.id,
              label: choice.model.id === defaultModelId ? t('mobile.liveOptions.defaultChoice', { name: definitionName(choice.model, i18n.language) }) : definitionName(choice.model, i18n.language),
              // The group in the page's language too: "Standard" in English, "标准" in Chinese.
              description: definitionName({ displayName: choice.groupName, displayNameEn: choice.groupNameEn }, i18n.language),
            }))}
            onChange={([next]) => {
              setPicked(next);
              setRefused(false);
            }}
          />
        </div>
      )}
      {refused ? (
        <div role="alert" className={styles.error}>
          {t('playerCell.noDefaultTemplate')}
        </div>
      ) : null}
    </SourceOptionsDialog>
  );
}

import { useMemo, useState } from 'react';
import { DotLoading, List, Popup, SearchBar, Selector } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { PlayableSource } from '../../shared/playable-source.ts';
import { definitionName } from '../../shared/player-cell/index.ts';
import { usePlaybackOptionsForm } from '../../features/playback/index.ts';
import {
  epochToWallClock,
  formatWallClock,
  matchesTimeZone,
  parseWallClock,
  SPEED_CHOICES,
  templateGroups,
  timeZoneLabel,
  timeZonesAt,
  wallClockToEpoch,
  type PlaybackOptions,
  type PlaybackOptionsField,
  type TextLanguage,
  type TimeZoneEntry,
} from '../../features/playback/index.ts';
import { OneChoiceList } from './PickerSheet.tsx';
import { SourceOptionsDialog } from './SourceOptionsDialog.tsx';
import styles from '../mobile.module.css';

export interface PlaybackOptionsDialogProps {
  source: PlayableSource;
  /** The options of the playback running now, to change its range; else the defaults. */
  initial?: PlaybackOptions | undefined;
  onPlay(options: PlaybackOptions): void;
  onClose(): void;
  /** The clock (tests fix it). */
  now?: () => number;
}

/** "2025-05-01T08:00:00", what a datetime-local input holds, for a time in a zone. */
function toInputValue(epoch: number | undefined, zone: TimeZoneEntry | undefined): string {
  return epoch === undefined || !zone ? '' : formatWallClock(epochToWallClock(epoch, zone)).replace(' ', 'T');
}

function fromInputValue(value: string, zone: TimeZoneEntry | undefined): number | undefined {
  const wall = parseWallClock(value.replace('T', ' '));
  return wall && zone ? wallClockToEpoch(wall, zone) : undefined;
}

/**
 * Ship-end playback options on a phone: time zone (timezones.json, searchable in both
 * languages), start and end (the phone's own date-time pickers, in the chosen zone, never after
 * now), speed and definition; validated by the same rules as the desktop dialog
 * (features/playback/options.ts, spec §5).
 */
export function PlaybackOptionsDialog({ source, initial, onPlay, onClose, now = Date.now }: PlaybackOptionsDialogProps) {
  const { t } = useTranslation();
  const { language, config, shipConfig, draft, template, zone, shown, change, submit: play } = usePlaybackOptionsForm({
    orgId: source.orgId,
    shipId: source.shipId,
    initial,
    now,
    onSubmit: onPlay,
  });
  const [zonePicker, setZonePicker] = useState(false);
  const errorText = (field: PlaybackOptionsField) => {
    const error = shown[field];
    return error ? (
      <div role="alert" className={styles.fieldError}>
        {t(`playback.options.errors.${error}`)}
      </div>
    ) : null;
  };

  const maxInput = toInputValue(now(), zone);
  // Start and end: the phone's date-time picker, in the chosen zone, never after now.
  const timeField = (field: 'start' | 'end') => (
    <>
      <label className={styles.fieldLabel} htmlFor={`playback-${field}`}>
        {t(`playback.options.${field}`)}
      </label>
      <input
        id={`playback-${field}`}
        className={styles.timeInput}
        type="datetime-local"
        step={1}
        max={maxInput}
        value={toInputValue(draft[field], zone)}
        onChange={(e) => change(field, { [field]: fromInputValue(e.target.value, zone) })}
        aria-invalid={shown[field] !== undefined}
      />
      {errorText(field)}
    </>
  );

  const groups = shipConfig ? templateGroups(shipConfig) : [];
  const templateOptions = groups.flatMap((g) => g.models.map((m) => ({ value: `${g.id}:${m.id}`, label: definitionName(m, language), description: definitionName(g, language) })));

  return (
    <>
      <SourceOptionsDialog
        title={t('mobile.playbackOptions.title')}
        source={source}
        cancelText={t('playback.options.cancel')}
        playText={t('playback.options.ok')}
        playDisabled={config.isLoading}
        onPlay={play}
        onClose={onClose}
        bodyStyle={{ maxHeight: '80vh', overflowY: 'auto' }}
      >
        <List className={styles.compactList}>
          <List.Item
            onClick={() => setZonePicker(true)}
            arrowIcon
            description={errorText('timeZone')}
            extra={<span className={styles.zoneText}>{zone ? timeZoneLabel(zone, language, draft.start ?? now()) : t('mobile.playbackOptions.pick')}</span>}
          >
            {t('playback.options.timeZone')}
          </List.Item>
        </List>

        {timeField('start')}
        {timeField('end')}

        <div className={styles.fieldLabel}>{t('playback.options.speed')}</div>
        <div role="group" aria-label={t('playback.options.speed')}>
          <Selector<number>
            columns={5}
            showCheckMark={false}
            style={{ '--padding': '8px 2px' }}
            value={draft.speed === undefined ? [] : [draft.speed]}
            options={SPEED_CHOICES.map((speed) => ({ value: speed, label: t('playback.options.speedOption', { speed }) }))}
            onChange={([speed]) => change('speed', { speed })}
          />
        </div>
        {errorText('speed')}

        <div className={styles.fieldLabel}>{t('playback.options.template')}</div>
        {config.isLoading ? (
          <span role="status">
            <DotLoading /> {t('playback.options.templateLoading')}
          </span>
        ) : (
          <div role="group" aria-label={t('playback.options.template')}>
            <Selector<string>
              columns={1}
              value={template ? [`${template[0]}:${template[1]}`] : []}
              options={templateOptions}
              onChange={([value]) => {
                const [groupId, modelId] = (value ?? '').split(':').map(Number);
                change('template', { template: groupId !== undefined && modelId !== undefined && value ? [groupId, modelId] : undefined });
              }}
            />
          </div>
        )}
        {errorText('template')}
      </SourceOptionsDialog>
      <TimeZoneSheet
        open={zonePicker}
        value={zone?.id}
        language={language}
        at={draft.start ?? now()}
        onPick={(id) => change('timeZone', { timeZoneId: id })}
        onClose={() => setZonePicker(false)}
      />
    </>
  );
}

/** The zones sorted by their offset at `at` (the start being chosen), labelled and searchable as of then. */
function TimeZoneSheet({ open, value, language, at, onPick, onClose }: { open: boolean; value: string | undefined; language: TextLanguage; at: number; onPick(id: string): void; onClose(): void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const options = useMemo(
    () => timeZonesAt(at).filter((zone) => matchesTimeZone(zone, query, at)).map((zone) => ({ value: zone.id, label: timeZoneLabel(zone, language, at) })),
    [query, language, at],
  );
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} destroyOnClose bodyStyle={{ height: '70vh', display: 'flex', flexDirection: 'column', borderRadius: '12px 12px 0 0' }}>
      <div role="dialog" aria-label={t('playback.options.timeZone')} className={styles.zoneSheet}>
        <div className={styles.sheetTitle}>{t('playback.options.timeZone')}</div>
        <div className={styles.zoneSearch}>
          <SearchBar placeholder={t('playback.options.timeZoneSearch')} value={query} onChange={setQuery} />
        </div>
        <div className={styles.zoneList}>
          <OneChoiceList value={value} options={options} onPick={onPick} onClose={onClose} />
        </div>
      </div>
    </Popup>
  );
}

import { useMemo, useState } from 'react';
import { CheckList, Dialog, DotLoading, List, Popup, SearchBar, Selector } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { ShipConfig } from '@ship-cctv/protocol';
import type { PlayableSource } from '../../features/fleet/types.ts';
import { useShipConfig } from '../../features/live/api/get-ship-config.ts';
import {
  defaultPlaybackOptions,
  defaultTemplatePair,
  epochToWallClock,
  findTimeZone,
  formatWallClock,
  matchesTimeZone,
  parseWallClock,
  SPEED_CHOICES,
  templateGroups,
  TIME_ZONES,
  timeZoneLabel,
  validatePlaybackOptions,
  wallClockToEpoch,
  type PlaybackOptions,
  type PlaybackOptionsDraft,
  type PlaybackOptionsErrors,
  type PlaybackOptionsField,
  type TemplatePair,
  type TextLanguage,
  type TimeZoneEntry,
} from '../../features/playback/options.ts';
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
  const { t, i18n } = useTranslation();
  const language: TextLanguage = i18n.language === 'en' ? 'en' : 'zh-CN';
  const config = useShipConfig(source.orgId, source.shipId);
  // Spec §8: a config that cannot be read is not an error to show; the server applies the default.
  const shipConfig: ShipConfig | undefined = config.data;
  const [draft, setDraft] = useState<PlaybackOptionsDraft>(() => (initial ? { ...initial } : defaultPlaybackOptions(now())));
  const [touched, setTouched] = useState<ReadonlySet<PlaybackOptionsField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [zonePicker, setZonePicker] = useState(false);

  // Until one is picked, the definition is the ship's default (known once the config is).
  const template: TemplatePair | undefined = draft.template ?? (shipConfig ? defaultTemplatePair(shipConfig) : undefined);
  const zone = findTimeZone(draft.timeZoneId);
  const check = validatePlaybackOptions({ ...draft, template }, { now: now(), config: shipConfig });
  const shown: PlaybackOptionsErrors = {};
  for (const [field, error] of Object.entries(check.errors) as [PlaybackOptionsField, PlaybackOptionsErrors[PlaybackOptionsField]][]) {
    // "No default template" blocks the playback whatever is chosen: say so at once.
    if (submitted || touched.has(field) || error === 'noDefaultTemplate') shown[field] = error;
  }
  const errorText = (field: PlaybackOptionsField) => {
    const error = shown[field];
    return error ? (
      <div role="alert" className={styles.fieldError}>
        {t(`playback.options.errors.${error}`)}
      </div>
    ) : null;
  };

  const change = (field: PlaybackOptionsField, next: Partial<PlaybackOptionsDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setTouched((s) => new Set(s).add(field));
  };
  const maxInput = toInputValue(now(), zone);

  const play = () => {
    setSubmitted(true);
    const result = validatePlaybackOptions({ ...draft, template }, { now: now(), config: shipConfig });
    if (result.ok) onPlay(result.options);
  };

  const groups = shipConfig ? templateGroups(shipConfig) : [];
  const templateOptions = groups.flatMap((g) => g.models.map((m) => ({ value: `${g.id}:${m.id}`, label: m.displayName, description: g.displayName })));

  return (
    <>
      <Dialog
        visible
        aria-label={t('mobile.playbackOptions.title')}
        title={t('mobile.playbackOptions.title')}
        closeOnMaskClick
        onClose={onClose}
        bodyStyle={{ maxHeight: '80vh', overflowY: 'auto' }}
        content={
          <div className={styles.dialogBody}>
            <div className={styles.dialogSubtitle}>
              {source.title} · {source.shipDisplayName}
            </div>

            <List className={styles.compactList}>
              <List.Item
                onClick={() => setZonePicker(true)}
                arrowIcon
                description={errorText('timeZone')}
                extra={<span className={styles.zoneText}>{zone ? timeZoneLabel(zone, language) : t('mobile.playbackOptions.pick')}</span>}
              >
                {t('playback.options.timeZone')}
              </List.Item>
            </List>

            <label className={styles.fieldLabel} htmlFor="playback-start">
              {t('playback.options.start')}
            </label>
            <input
              id="playback-start"
              className={styles.timeInput}
              type="datetime-local"
              step={1}
              max={maxInput}
              value={toInputValue(draft.start, zone)}
              onChange={(e) => change('start', { start: fromInputValue(e.target.value, zone) })}
              aria-invalid={shown.start !== undefined}
            />
            {errorText('start')}

            <label className={styles.fieldLabel} htmlFor="playback-end">
              {t('playback.options.end')}
            </label>
            <input
              id="playback-end"
              className={styles.timeInput}
              type="datetime-local"
              step={1}
              max={maxInput}
              value={toInputValue(draft.end, zone)}
              onChange={(e) => change('end', { end: fromInputValue(e.target.value, zone) })}
              aria-invalid={shown.end !== undefined}
            />
            {errorText('end')}

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
          </div>
        }
        actions={[
          [
            { key: 'cancel', text: t('playback.options.cancel'), onClick: onClose },
            { key: 'play', text: t('playback.options.ok'), bold: true, disabled: config.isLoading, onClick: play },
          ],
        ]}
      />
      <TimeZoneSheet
        open={zonePicker}
        value={zone?.id}
        language={language}
        onPick={(id) => change('timeZone', { timeZoneId: id })}
        onClose={() => setZonePicker(false)}
      />
    </>
  );
}

function TimeZoneSheet({ open, value, language, onPick, onClose }: { open: boolean; value: string | undefined; language: TextLanguage; onPick(id: string): void; onClose(): void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const zones = useMemo(() => TIME_ZONES.filter((zone) => matchesTimeZone(zone, query)), [query]);
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} destroyOnClose bodyStyle={{ height: '70vh', display: 'flex', flexDirection: 'column', borderRadius: '12px 12px 0 0' }}>
      <div role="dialog" aria-label={t('playback.options.timeZone')} className={styles.zoneSheet}>
        <div className={styles.sheetTitle}>{t('playback.options.timeZone')}</div>
        <div className={styles.zoneSearch}>
          <SearchBar placeholder={t('playback.options.timeZoneSearch')} value={query} onChange={setQuery} />
        </div>
        <div className={styles.zoneList}>
          <CheckList
            value={value ? [value] : []}
            onChange={(values) => {
              const next = values[0];
              if (typeof next === 'string') onPick(next);
              onClose();
            }}
          >
            {zones.map((zone) => (
              <CheckList.Item key={zone.id} value={zone.id}>
                {timeZoneLabel(zone, language)}
              </CheckList.Item>
            ))}
          </CheckList>
        </div>
      </div>
    </Popup>
  );
}

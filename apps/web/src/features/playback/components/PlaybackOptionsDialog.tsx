import { useMemo } from 'react';
import { Button, Cascader, DatePicker, Flex, Form, Modal, Radio, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { usePlaybackOptionsForm } from '../hooks/usePlaybackOptionsForm.ts';
import {
  clockZoneOf,
  closedTimeParts,
  epochToWallClock,
  findTimeZone,
  formatInTimeZone,
  isDayAfterNow,
  matchesTimeZone,
  SPEED_CHOICES,
  templateGroups,
  timeZoneLabel,
  timeZonesAt,
  wallClockToEpoch,
  type PlaybackOptions,
  type PlaybackOptionsField,
  type TimeZoneEntry,
  type WallClock,
} from '../options.ts';
import { definitionName } from '../../../shared/player-cell/index.ts';
import { usePickerZone } from './picker-zone.ts';

const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** What the dialog needs of the channel: whose config to read, and its name for the title. */
export interface PlaybackTarget {
  cameraId: string;
  title: string;
  orgId: string;
  shipId: string;
}

export interface PlaybackOptionsDialogProps {
  /** The channel to play back; the dialog is open while it is set. */
  target: PlaybackTarget | undefined;
  /** The options last used (the dialog starts from them), else the spec defaults. */
  initial?: PlaybackOptions | undefined;
  onCancel(): void;
  onSubmit(options: PlaybackOptions): void;
  /** For tests: the clock. */
  now?: () => number;
}

/**
 * Spec §3 "Playback options", §5: time zone, start and end (typed in that zone, at most now),
 * speed and the definition template pair; every error is shown at its field.
 */
export function PlaybackOptionsDialog({ target, initial, onCancel, onSubmit, now = Date.now }: PlaybackOptionsDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={target !== undefined}
      title={target ? t('playback.options.title', { channel: target.title }) : ''}
      onCancel={onCancel}
      footer={null}
      destroyOnHidden
      width={560}
    >
      {target ? <OptionsForm key={target.cameraId} target={target} initial={initial} onCancel={onCancel} onSubmit={onSubmit} now={now} /> : null}
    </Modal>
  );
}

/** dayjs in the browser's zone carries the wall clock of the chosen zone: the picker shows it as is. */
function toPickerValue(epoch: number | undefined, zone: TimeZoneEntry): Dayjs | null {
  if (epoch === undefined) return null;
  const w = epochToWallClock(epoch, zone);
  return dayjs(new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
}

function wallOf(value: Dayjs): WallClock {
  return { year: value.year(), month: value.month() + 1, day: value.date(), hour: value.hour(), minute: value.minute(), second: value.second() };
}

function OptionsForm({ target, initial, onCancel, onSubmit, now }: Required<Omit<PlaybackOptionsDialogProps, 'target' | 'initial'>> & { target: PlaybackTarget; initial: PlaybackOptions | undefined }) {
  const { t } = useTranslation();
  const { language, config, shipConfig, draft, template, zone, check, shown, change, submit } = usePlaybackOptionsForm({
    orgId: target.orgId,
    shipId: target.shipId,
    initial,
    now,
    onSubmit,
  });

  usePickerZone(zone ? clockZoneOf(zone) : undefined);
  // Each zone's offset as of the time being chosen (the start), sorted by it.
  const at = draft.start ?? now();
  const zoneOptions = useMemo(() => timeZonesAt(at).map((z) => ({ value: z.id, label: timeZoneLabel(z, language, at) })), [language, at]);
  const groups = shipConfig ? templateGroups(shipConfig) : [];
  const templateOptions = groups.map((g) => ({ value: g.id, label: definitionName(g, language), children: g.models.map((m) => ({ value: m.id, label: definitionName(m, language) })) }));

  const nowWall = zone ? epochToWallClock(now(), zone) : undefined;
  const pickerLimits = {
    disabledDate: (value: Dayjs) => (nowWall ? isDayAfterNow(wallOf(value), nowWall) : false),
    disabledTime: (value: Dayjs | null) => {
      if (!value || !nowWall) return {};
      const closed = closedTimeParts(wallOf(value), nowWall);
      return { disabledHours: () => closed.hours, disabledMinutes: closed.minutes, disabledSeconds: closed.seconds };
    },
  };
  const fromPicker = (value: Dayjs | null) => (value && zone ? wallClockToEpoch(wallOf(value), zone) : undefined);

  const status = (field: PlaybackOptionsField) => (shown[field] ? ('error' as const) : undefined);
  const help = (field: PlaybackOptionsField) => {
    const error = shown[field];
    return error ? t(`playback.options.errors.${error}`) : undefined;
  };

  // Start and end: typed in the chosen zone, at most now.
  const timeItem = (field: 'start' | 'end') => (
    <Form.Item label={t(`playback.options.${field}`)} htmlFor={`playback-${field}`} validateStatus={status(field)} help={help(field)}>
      <DatePicker
        id={`playback-${field}`}
        aria-label={t(`playback.options.${field}`)}
        showTime
        format={PICKER_FORMAT}
        value={zone ? toPickerValue(draft[field], zone) : null}
        onChange={(value) => change(field, { [field]: fromPicker(value) })}
        {...pickerLimits}
        style={{ width: '100%' }}
      />
    </Form.Item>
  );

  const templateBlocked = config.isLoading || check.errors.template === 'noDefaultTemplate';

  return (
    // No submit on Enter: Enter confirms a typed time in a picker, it must not start the playback.
    <Form layout="vertical" requiredMark={false} component="div">
      <Form.Item label={t('playback.options.timeZone')} htmlFor="playback-time-zone" validateStatus={status('timeZone')} help={help('timeZone')}>
        <Select<string>
          id="playback-time-zone"
          aria-label={t('playback.options.timeZone')}
          value={zone?.id}
          options={zoneOptions}
          placeholder={t('playback.options.timeZoneSearch')}
          showSearch={{
            filterOption: (input, option) => {
              const entry = option ? findTimeZone(String(option.value)) : undefined;
              return entry ? matchesTimeZone(entry, input, at) : false;
            },
          }}
          // Another zone shows the same instants in its clock: what was typed keeps its meaning.
          onChange={(id) => change('timeZone', { timeZoneId: id })}
        />
      </Form.Item>
      {zone ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: -16 }}>
          {t('playback.options.zoneNote', { now: formatInTimeZone(now(), zone) })}
        </Typography.Paragraph>
      ) : null}
      {timeItem('start')}
      {timeItem('end')}
      <Form.Item label={t('playback.options.speed')} validateStatus={status('speed')} help={help('speed')}>
        <Radio.Group
          aria-label={t('playback.options.speed')}
          optionType="button"
          value={draft.speed}
          onChange={(e) => change('speed', { speed: Number(e.target.value) })}
          options={SPEED_CHOICES.map((speed) => ({ value: speed, label: t('playback.options.speedOption', { speed }) }))}
        />
      </Form.Item>
      <Form.Item label={t('playback.options.template')} htmlFor="playback-template" validateStatus={status('template')} help={help('template')}>
        <Cascader
          id="playback-template"
          aria-label={t('playback.options.template')}
          options={templateOptions}
          value={template ? [...template] : undefined}
          allowClear={false}
          disabled={templateBlocked || groups.length === 0}
          placeholder={config.isLoading ? t('playback.options.templateLoading') : t('playback.options.template')}
          onChange={(value) => {
            const [groupId, modelId] = (value ?? []) as number[];
            change('template', { template: groupId !== undefined && modelId !== undefined ? [groupId, modelId] : undefined });
          }}
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Flex justify="end" gap={8}>
        <Button onClick={onCancel}>{t('playback.options.cancel')}</Button>
        <Button type="primary" disabled={templateBlocked} onClick={submit}>
          {t('playback.options.ok')}
        </Button>
      </Flex>
    </Form>
  );
}

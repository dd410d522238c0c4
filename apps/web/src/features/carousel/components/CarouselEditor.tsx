import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Drawer, Flex, Form, Input, InputNumber, Radio, Select, Spin, Switch, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCarouselTranslation as useTranslation } from '../texts.ts';
import { useQueries } from '@tanstack/react-query';
import { CAROUSEL_LAYOUTS, CAROUSEL_LIMITS, CAROUSEL_MODES, type Carousel, type CarouselKind } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { definitionName, shipConfigQuery } from '../../../shared/player-cell/index.ts';
import { shipDisplayName, shipsOf, SourceTree, type SourceNode, type SourceTreeActions, useOrganisations, visibleChannels } from '../../../shared/source-tree/index.ts';
import { useCarouselDetail } from '../api/detail.ts';
import { useCarouselEstimate } from '../api/estimate.ts';
import { useSaveCarousel } from '../api/save.ts';
import { useCarouselSettings } from '../api/settings.ts';
import {
  addChannels,
  type CarouselFormValues,
  type ChosenChannel,
  definitionModels,
  effectiveMode,
  type ErrorKey,
  hasErrors,
  newCarouselValues,
  toEstimateBody,
  toSimpleBody,
  toTaskBody,
  validateCarousel,
  valuesOf,
  WEEK_DAYS,
} from '../editor.ts';
import { ChannelOrderList } from './ChannelOrderList.tsx';
import styles from '../carousel.module.css';
import { useMessage } from '../../../shared/message.tsx';

/** What the editor opens on: a new carousel of a kind, or a saved one. */
export type EditorTarget = { kind: CarouselKind; carousel?: undefined } | { kind: CarouselKind; carousel: Carousel };

/** Ships whose definition models are asked for the resolution select (each is one small request). */
const DEFINITION_SHIPS = 8;

function timeZones(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An old browser: the current zone alone.
  }
  return zones.includes(current) ? zones : [current, ...zones];
}

const toTime = (hhmm: string): Dayjs | null => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  return m ? dayjs().hour(Number(m[1])).minute(Number(m[2])).second(0).millisecond(0) : null;
};

/** The channel a tree node stands for (a camera row stands for its channel: a cell plays a channel's first camera). */
function chosenOf(node: SourceNode): ChosenChannel | undefined {
  if (node.kind !== 'channel' && node.kind !== 'camera') return undefined;
  return { channelId: node.channel.id, channelName: node.channel.name, shipId: node.ship.id, shipDisplayName: shipDisplayName(node.ship), orgId: node.ship.orgId };
}

export interface CarouselEditorProps {
  /** Open on this; closed when undefined. */
  target: EditorTarget | undefined;
  /** The organisation a new carousel belongs to (the one picked on the screen). */
  orgId: string | undefined;
  onClose(): void;
  onSaved(carousel: Carousel): void;
}

/**
 * Creates or edits a carousel: name, kind, mode (tasks), channels from the source tree (ordered by
 * drag and drop or the arrows) or ships, layout, carousel time, resolution, a schedule (tasks), and
 * what it would cost the ships' uplinks per hour. Checked here before saving; the server's refusal
 * is shown as it words it.
 */
export function CarouselEditor({ target, orgId, onClose, onSaved }: CarouselEditorProps) {
  const { t } = useTranslation();
  const editing = target?.carousel;
  return (
    <Drawer
      open={target !== undefined}
      onClose={onClose}
      size={1100}
      title={editing ? t('carousel.editor.editTitle') : t('carousel.editor.createTitle')}
      destroyOnHidden
    >
      {target ? <EditorBody key={editing?.id ?? `new-${target.kind}`} target={target} orgId={orgId} onClose={onClose} onSaved={onSaved} /> : null}
    </Drawer>
  );
}

function EditorBody({ target, orgId, onClose, onSaved }: { target: EditorTarget; orgId: string | undefined; onClose(): void; onSaved(carousel: Carousel): void }) {
  const { t } = useTranslation();
  const editing = target.carousel;
  const detail = useCarouselDetail(editing?.kind, editing?.id);
  const [values, setValues] = useState<CarouselFormValues | undefined>(() => (editing ? undefined : newCarouselValues(orgId ?? '', target.kind)));

  // A saved carousel: its values once its channels are resolved (their names).
  useEffect(() => {
    if (editing && detail.data && values === undefined) setValues(valuesOf(detail.data.carousel, detail.data.cells));
  }, [editing, detail.data, values]);

  // A new carousel belongs to the organisation picked (in the tree too): another one starts its lists afresh.
  useEffect(() => {
    if (editing || !orgId) return;
    setValues((v) => (v && v.orgId !== orgId ? { ...v, orgId, channels: [], shipIds: [] } : v));
  }, [editing, orgId]);

  if (editing && detail.error) return <Alert type="error" showIcon message={t('carousel.editor.loadFailed', { message: detail.error.message })} />;
  if (!values) {
    return (
      <Flex justify="center" style={{ marginTop: 64 }}>
        <Spin />
      </Flex>
    );
  }
  return <EditorForm values={values} onChange={setValues} editing={editing !== undefined} onClose={onClose} onSaved={onSaved} />;
}

function EditorForm({
  values,
  onChange,
  editing,
  onClose,
  onSaved,
}: {
  values: CarouselFormValues;
  onChange(update: (v: CarouselFormValues | undefined) => CarouselFormValues | undefined): void;
  editing: boolean;
  onClose(): void;
  onSaved(carousel: Carousel): void;
}) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const settings = useCarouselSettings();
  const { orgs } = useOrganisations();
  const save = useSaveCarousel();
  const [showErrors, setShowErrors] = useState(false);
  const set = (patch: Partial<CarouselFormValues>) => onChange((v) => (v ? { ...v, ...patch } : v));

  const org = orgs.find((o) => o.id === values.orgId);
  const orgShips = useMemo(() => (org ? shipsOf(org.node) : []), [org]);
  const mode = effectiveMode(values);
  const errors = validateCarousel(values, { secondsAllowed: settings.secondsAllowed });
  const errorText = (key: ErrorKey | undefined) => (showErrors && key ? t(`carousel.errors.${key}`, CAROUSEL_LIMITS) : undefined);
  const status = (key: ErrorKey | undefined) => (showErrors && key ? ('error' as const) : undefined);

  // The resolution select offers the models of the ships involved (and each ship's default).
  const shipsInvolved = useMemo(() => {
    const pairs =
      mode === 'channels'
        ? values.channels.filter((c) => c.shipId).map((c) => ({ orgId: c.orgId, shipId: c.shipId }))
        : (mode === 'ships' ? orgShips.filter((s) => values.shipIds.includes(s.id)) : orgShips).map((s) => ({ orgId: s.orgId, shipId: s.id }));
    const seen = new Set<string>();
    return pairs.filter((p) => !seen.has(p.shipId) && seen.add(p.shipId)).slice(0, DEFINITION_SHIPS);
  }, [mode, values.channels, values.shipIds, orgShips]);
  const configs = useQueries({ queries: shipsInvolved.map((p) => shipConfigQuery(p.orgId, p.shipId)) });
  const models = definitionModels(configs.map((c) => c.data));

  const estimateBody = useMemo(() => toEstimateBody(values, settings.secondsAllowed), [values, settings.secondsAllowed]);
  const estimate = useCarouselEstimate(estimateBody);
  const bytes = (n: number) => formatBytes(n, i18n.language);

  const actions = useMemo<SourceTreeActions>(() => {
    const add = (node: SourceNode) => {
      const chosen = chosenOf(node);
      if (chosen) onChange((v) => (v ? { ...v, channels: addChannels(v.channels, [chosen]) } : v));
    };
    return {
      open: add,
      select: { key: undefined, onSelect: add },
      openShip(ship, channels) {
        const added = visibleChannels(channels).map((c) => ({ channelId: c.id, channelName: c.name, shipId: ship.id, shipDisplayName: shipDisplayName(ship), orgId: ship.orgId }));
        onChange((v) => (v ? { ...v, channels: addChannels(v.channels, added) } : v));
      },
      hint: t('carousel.editor.treeHint'),
    };
  }, [onChange, t]);

  const submit = () => {
    if (hasErrors(errors)) {
      setShowErrors(true);
      return;
    }
    const request =
      values.kind === 'simple'
        ? ({ kind: 'simple', body: toSimpleBody(values, settings.secondsAllowed) } as const)
        : ({ kind: 'task', body: toTaskBody(values, settings.secondsAllowed) } as const);
    save.mutate(request, {
      onSuccess: (carousel) => {
        message.success(t('carousel.editor.saved'));
        onSaved(carousel);
      },
    });
  };

  const zones = useMemo(() => timeZones(values.timeZone), [values.timeZone]);

  return (
    <Flex vertical gap={12} style={{ height: '100%' }}>
      <Flex gap={16} style={{ flex: 1, minHeight: 0 }}>
        {mode === 'channels' ? (
          <div className={styles.editorTree} data-testid="carousel-editor-tree">
            <SourceTree actions={actions} />
          </div>
        ) : null}
        <Form layout="vertical" style={{ flex: 1, minWidth: 0, overflowY: 'auto', paddingInlineEnd: 8 }} component="div">
          <Flex gap={16} wrap>
            <Form.Item label={t('carousel.editor.kind')} style={{ marginBottom: 12 }}>
              <Radio.Group
                optionType="button"
                value={values.kind}
                disabled={editing}
                onChange={(e) => set({ kind: e.target.value as CarouselKind })}
                options={[
                  { value: 'simple', label: t('carousel.kinds.simple') },
                  { value: 'task', label: t('carousel.kinds.task') },
                ]}
              />
            </Form.Item>
            <Form.Item label={t('carousel.editor.organisation')} style={{ marginBottom: 12 }}>
              <Typography.Text data-testid="carousel-editor-org">{org?.displayName ?? values.orgId}</Typography.Text>
            </Form.Item>
          </Flex>
          <Form.Item label={t('carousel.editor.name')} required validateStatus={status(errors.name)} help={errorText(errors.name)} style={{ marginBottom: 12 }}>
            <Input aria-label={t('carousel.editor.name')} placeholder={t('carousel.editor.namePrompt')} maxLength={CAROUSEL_LIMITS.nameLength} value={values.name} onChange={(e) => set({ name: e.target.value })} />
          </Form.Item>
          {values.kind === 'task' ? (
            <Form.Item label={t('carousel.editor.mode')} style={{ marginBottom: 12 }}>
              <Radio.Group optionType="button" value={values.mode} onChange={(e) => set({ mode: e.target.value as CarouselFormValues['mode'] })} options={CAROUSEL_MODES.map((m) => ({ value: m, label: t(`carousel.modes.${m}`) }))} />
            </Form.Item>
          ) : null}
          {mode === 'channels' ? (
            <Form.Item
              label={
                <Flex gap={8} align="center">
                  <span>{t('carousel.editor.chosen')}</span>
                  {values.channels.length > 0 ? (
                    <Button size="small" type="link" onClick={() => set({ channels: [] })}>
                      {t('carousel.editor.clear')}
                    </Button>
                  ) : null}
                </Flex>
              }
              required
              validateStatus={status(errors.channels)}
              help={errorText(errors.channels)}
              style={{ marginBottom: 12 }}
            >
              <ChannelOrderList channels={values.channels} onChange={(channels) => set({ channels })} />
            </Form.Item>
          ) : mode === 'ships' ? (
            <Form.Item label={t('carousel.editor.ship')} required validateStatus={status(errors.ships)} help={errorText(errors.ships)} style={{ marginBottom: 12 }}>
              <Select
                mode="multiple"
                aria-label={t('carousel.editor.ship')}
                placeholder={t('carousel.editor.shipPrompt')}
                value={values.shipIds}
                onChange={(shipIds: string[]) => set({ shipIds })}
                options={orgShips.map((s) => ({ value: s.id, label: shipDisplayName(s) }))}
                showSearch={{ optionFilterProp: 'label' }}
              />
            </Form.Item>
          ) : (
            <Alert type="info" showIcon message={t('carousel.editor.organisationMode')} style={{ marginBottom: 12 }} />
          )}
          <Form.Item label={t('carousel.editor.layout')} style={{ marginBottom: 12 }}>
            <Radio.Group
              optionType="button"
              value={values.layout}
              onChange={(e) => set({ layout: e.target.value as CarouselFormValues['layout'] })}
              options={CAROUSEL_LAYOUTS.map((n) => ({ value: n, label: t('carousel.layoutOption', { count: n }) }))}
            />
          </Form.Item>
          <Flex gap={16} wrap>
            <Form.Item label={t('carousel.editor.time')} required validateStatus={status(errors.minutes)} help={errorText(errors.minutes)} style={{ marginBottom: 12 }}>
              <InputNumber<number>
                aria-label={t('carousel.editor.time')}
                placeholder={t('carousel.editor.timePrompt')}
                min={CAROUSEL_LIMITS.minMinutes}
                max={CAROUSEL_LIMITS.maxMinutes}
                precision={0}
                value={values.minutes}
                onChange={(minutes) => set({ minutes })}
                suffix={t('carousel.editor.minutesUnit')}
                style={{ width: 180 }}
              />
            </Form.Item>
            {settings.secondsAllowed ? (
              <Form.Item label={t('carousel.editor.seconds')} tooltip={t('carousel.editor.secondsHint')} validateStatus={status(errors.seconds)} help={errorText(errors.seconds)} style={{ marginBottom: 12 }}>
                <InputNumber<number>
                  aria-label={t('carousel.editor.seconds')}
                  min={CAROUSEL_LIMITS.minSeconds}
                  max={CAROUSEL_LIMITS.maxSeconds}
                  precision={0}
                  value={values.seconds}
                  onChange={(seconds) => set({ seconds })}
                  style={{ width: 180 }}
                />
              </Form.Item>
            ) : null}
            <Form.Item label={t('carousel.editor.resolution')} style={{ marginBottom: 12 }}>
              <Select<number | 'default'>
                aria-label={t('carousel.editor.resolution')}
                style={{ width: 240 }}
                value={values.templateId ?? 'default'}
                onChange={(v) => set({ templateId: v === 'default' ? null : v })}
                options={[
                  { value: 'default' as const, label: t('carousel.editor.shipDefault') },
                  // A saved model no ship involved offers (any more) still shows by its id.
                  ...(values.templateId !== null && !models.some((m) => m.id === values.templateId) ? [{ value: values.templateId, label: `#${values.templateId}` }] : []),
                  ...models.map((m) => ({ value: m.id, label: definitionName(m, i18n.language) })),
                ]}
              />
            </Form.Item>
          </Flex>
          {values.kind === 'task' ? (
            <Form.Item label={t('carousel.editor.schedule')} style={{ marginBottom: 12 }}>
              <Flex vertical gap={8}>
                <Flex gap={8} align="center">
                  <Switch checked={values.scheduleOn} onChange={(scheduleOn) => set({ scheduleOn })} aria-label={t('carousel.editor.scheduleOn')} />
                  <span>{t('carousel.editor.scheduleOn')}</span>
                </Flex>
                {values.scheduleOn ? (
                  <>
                    <Form.Item label={t('carousel.editor.days')} validateStatus={status(errors.days)} help={errorText(errors.days)} style={{ marginBottom: 0 }}>
                      <Checkbox.Group
                        value={values.days}
                        onChange={(days) => set({ days: days.map(Number) })}
                        options={WEEK_DAYS.map((d) => ({ value: d, label: t(`carousel.weekdays.${String(d) as '1'}`) }))}
                      />
                    </Form.Item>
                    <Flex gap={16} wrap>
                      <Form.Item label={t('carousel.editor.start')} validateStatus={status(errors.times)} help={errorText(errors.times)} style={{ marginBottom: 0 }}>
                        <TimePicker aria-label={t('carousel.editor.start')} format="HH:mm" allowClear={false} value={toTime(values.start)} onChange={(d) => set({ start: d ? d.format('HH:mm') : '' })} />
                      </Form.Item>
                      <Form.Item label={t('carousel.editor.end')} tooltip={t('carousel.editor.endHint')} style={{ marginBottom: 0 }}>
                        <TimePicker aria-label={t('carousel.editor.end')} format="HH:mm" allowClear={false} value={toTime(values.end)} onChange={(d) => set({ end: d ? d.format('HH:mm') : '' })} />
                      </Form.Item>
                      <Form.Item label={t('carousel.editor.timeZone')} validateStatus={status(errors.timeZone)} help={errorText(errors.timeZone)} style={{ marginBottom: 0 }}>
                        <Select aria-label={t('carousel.editor.timeZone')} style={{ width: 240 }} value={values.timeZone} onChange={(timeZone: string) => set({ timeZone })} options={zones.map((z) => ({ value: z, label: z }))} showSearch />
                      </Form.Item>
                    </Flex>
                  </>
                ) : null}
              </Flex>
            </Form.Item>
          ) : null}
          <div data-testid="carousel-estimate" aria-live="polite">
            {!estimateBody ? null : estimate.data ? (
              <Alert
                type="info"
                showIcon
                message={t('carousel.editor.estimate', { bytes: bytes(estimate.data.bytesPerHour), always: bytes(estimate.data.alwaysOnBytesPerHour) })}
                description={t('carousel.editor.estimatePages', { channels: estimate.data.channels, pages: estimate.data.pageCount, seconds: estimate.data.prewarmSeconds })}
              />
            ) : estimate.error ? (
              <Alert type="warning" showIcon message={t('carousel.editor.estimateFailed', { message: estimate.error.message })} />
            ) : (
              <Typography.Text type="secondary">{t('carousel.editor.estimating')}</Typography.Text>
            )}
          </div>
          {save.error ? <Alert type="error" showIcon style={{ marginTop: 12 }} message={t('carousel.editor.saveFailed', { message: save.error.message })} data-testid="carousel-save-error" /> : null}
        </Form>
      </Flex>
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onClose}>{t('carousel.editor.cancel')}</Button>
        <Button type="primary" loading={save.isPending} onClick={submit}>
          {t('carousel.editor.save')}
        </Button>
      </Flex>
    </Flex>
  );
}


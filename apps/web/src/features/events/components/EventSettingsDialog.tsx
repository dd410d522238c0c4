import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Radio, Select, Slider, Spin, Switch, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { DEFAULT_CAMERA_EVENT_SETTINGS, EVENT_CLASSES, type CameraEventSettings, type EventClass } from '@ship-cctv/protocol';
import { channelsQuery, shipDisplayName, shipsOf, type OrgOption } from '../../../shared/source-tree/index.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useSessionUser } from '../../../lib/session-store.ts';
import { shorePictureUrl, useCameraEventSettings, useLatestCameraEvent, useLatestCameraPicture, useTakeCameraPicture, useOrgNotifyRules, useSaveCameraEventSettings, useSaveOrgNotifyRules, type OrgNotifyRules } from '../api/event-settings.ts';
import { isClockTime } from '../event-view.ts';
import { eventPictureUrl } from '../api/events.ts';
import { useEventsTranslation as useTranslation } from '../texts.ts';
import { errorText } from './EventActions.tsx';
import { ZoneEditor } from './ZoneEditor.tsx';

const TIME_ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
const timeZoneOptions = TIME_ZONES.map((value) => ({ value, label: value }));

export interface EventSettingsDialogProps {
  org: Pick<OrgOption, 'id' | 'displayName' | 'node'> | undefined;
  open: boolean;
  onClose(): void;
  initialShipId?: string | undefined;
  initialCameraId?: string | undefined;
}

/**
 * Event detection settings of the chosen organisation: per camera (on/off, hours on the ship's
 * clock, classes, minimum score, motion sensitivity, zones and masks drawn on its latest picture),
 * and which new events notify the organisation's users (classes and hours).
 */
export function EventSettingsDialog({ org, open, onClose, initialShipId, initialCameraId }: EventSettingsDialogProps) {
  const { t } = useTranslation();
  // Managers change these; an operator reads them (shore refuses an operator's change).
  const readOnly = useSessionUser()?.role === 'operator';
  return (
    <Modal
      open={open}
      width={1040}
      title={org ? t('events.settings.title', { org: org.displayName }) : t('events.settings.chooseOrganisation')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {org && readOnly ? <Alert type="info" showIcon message={t('events.settings.readOnly')} style={{ marginBottom: 8 }} /> : null}
      {org ? (
        <Tabs
          items={[
            { key: 'camera', label: t('events.settings.tabCamera'), children: <CameraSettings org={org} initialShipId={initialShipId} initialCameraId={initialCameraId} readOnly={readOnly} /> },
            { key: 'notify', label: t('events.settings.tabNotify'), children: <NotifyRules orgId={org.id} readOnly={readOnly} /> },
          ]}
        />
      ) : null}
    </Modal>
  );
}

function ClassChoice({ value, onChange, disabled }: { value: EventClass[]; onChange(next: EventClass[]): void; disabled?: boolean }) {
  const { t } = useTranslation();
  return <Checkbox.Group disabled={disabled} value={value} onChange={(next) => onChange(EVENT_CLASSES.filter((c) => next.includes(c)))} options={EVENT_CLASSES.map((c) => ({ value: c, label: t(`events.class.${c}`) }))} />;
}

function CameraSettings({ org, initialShipId, initialCameraId, readOnly }: { org: Pick<OrgOption, 'node'>; initialShipId: string | undefined; initialCameraId: string | undefined; readOnly: boolean }) {
  const { t } = useTranslation();
  const ships = useMemo(() => shipsOf(org.node), [org.node]);
  const [shipId, setShipId] = useState<string | undefined>(initialShipId ?? ships[0]?.id);
  const [cameraId, setCameraId] = useState<string | undefined>(initialCameraId);
  const channels = useQuery({ ...channelsQuery(shipId ?? ''), enabled: !!shipId });
  const cameras = useMemo(
    () => (channels.data ?? []).flatMap((channel) => channel.cameras.map((camera) => ({ value: camera.id, channelId: channel.id, label: channel.cameras.length > 1 ? `${channel.name} · ${camera.name}` : channel.name }))),
    [channels.data],
  );
  // The ship's first camera when none is chosen.
  useEffect(() => {
    if (!cameraId && cameras[0]) setCameraId(cameras[0].value);
  }, [cameraId, cameras]);
  const ship = ships.find((s) => s.id === shipId);
  const camera = cameras.find((c) => c.value === cameraId);
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} align="center">
        <Select
          showSearch
          optionFilterProp="label"
          style={{ width: 240 }}
          aria-label={t('events.settings.ship')}
          data-event-settings="ship"
          value={shipId}
          options={ships.map((s) => ({ value: s.id, label: shipDisplayName(s) }))}
          onChange={(value: string) => {
            setShipId(value);
            setCameraId(undefined);
          }}
        />
        <Select style={{ width: 260 }} aria-label={t('events.settings.camera')} data-event-settings="camera" value={camera ? cameraId : undefined} loading={channels.isLoading} options={cameras} onChange={setCameraId} />
      </Flex>
      {camera && ship ? (
        <CameraForm key={camera.value} readOnly={readOnly} shipId={ship.id} channelId={camera.channelId} cameraId={camera.value} cameraName={camera.label} shipTimeZone={ship.timeZone} />
      ) : (
        <Typography.Text type="secondary">{t('events.settings.chooseCamera')}</Typography.Text>
      )}
    </Flex>
  );
}

function CameraForm({ shipId, channelId, cameraId, cameraName, shipTimeZone, readOnly }: { shipId: string; channelId: string; cameraId: string; cameraName: string; shipTimeZone: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const message = useMessage();
  const loaded = useCameraEventSettings(cameraId);
  const take = useTakeCameraPicture();
  const [waitingFor, setWaitingFor] = useState<string>();
  const picture = useLatestCameraPicture(cameraId, waitingFor);
  const lastEvent = useLatestCameraEvent(cameraId);
  useEffect(() => {
    if (waitingFor && picture.data?.id === waitingFor) setWaitingFor(undefined);
  }, [waitingFor, picture.data?.id]);
  const save = useSaveCameraEventSettings();
  const [draft, setDraft] = useState<CameraEventSettings>();
  useEffect(() => {
    if (loaded.data && !draft) {
      const { status: _status, ...settings } = loaded.data;
      setDraft(settings);
    }
  }, [loaded.data, draft]);

  if (loaded.isError) return <Alert type="error" showIcon message={t('events.settings.loadFailed', { message: errorText(loaded.error) })} />;
  if (!draft) return <Spin />;
  const set = (change: Partial<CameraEventSettings>) => setDraft({ ...draft, ...change });
  const schedule = draft.schedule;
  const scheduleValid = schedule.kind === 'always' || (isClockTime(schedule.from) && isClockTime(schedule.to));
  const status = loaded.data?.status;
  // The camera's latest picture on shore; else its latest event's picture.
  const shown = picture.data
    ? { url: shorePictureUrl(picture.data.id), time: picture.data.takenAt }
    : lastEvent.data
      ? { url: eventPictureUrl(lastEvent.data.id), time: lastEvent.data.start }
      : undefined;
  const shownTime = shown ? dayjs(shown.time).format('YYYY-MM-DD HH:mm') : '';

  return (
    <Form layout="vertical" data-testid="camera-event-settings" data-camera={cameraId}>
      <Flex gap={24} wrap>
        <Form.Item label={t('events.settings.enabled')}>
          <Switch checked={draft.enabled} onChange={(enabled) => set({ enabled })} data-event-field="enabled" />
        </Form.Item>
        {status ? (
          <Form.Item label={t('events.settings.status')}>
            <Tag color={status.state === 'running' ? 'green' : status.state === 'modelFailed' ? 'red' : 'default'} data-event-status={status.state}>
              {t(`events.settings.state.${status.state}`)}
              {status.reason ? ` · ${status.reason}` : ''}
            </Tag>
          </Form.Item>
        ) : null}
        <Form.Item label={t('events.settings.schedule')} extra={t('events.settings.scheduleHint')}>
          <Flex gap={8} align="center" wrap>
            <Radio.Group
              value={schedule.kind}
              onChange={(e) => set({ schedule: e.target.value === 'always' ? { kind: 'always' } : { kind: 'daily', timeZone: shipTimeZone || 'UTC', from: '18:00', to: '06:00' } })}
              options={[
                { value: 'always', label: t('events.settings.always') },
                { value: 'daily', label: t('events.settings.daily') },
              ]}
            />
            {schedule.kind === 'daily' ? (
              <>
                <Input style={{ width: 80 }} aria-label={t('events.settings.from')} value={schedule.from} status={isClockTime(schedule.from) ? undefined : 'error'} onChange={(e) => set({ schedule: { ...schedule, from: e.target.value } })} placeholder="HH:mm" />
                <span>–</span>
                <Input style={{ width: 80 }} aria-label={t('events.settings.to')} value={schedule.to} status={isClockTime(schedule.to) ? undefined : 'error'} onChange={(e) => set({ schedule: { ...schedule, to: e.target.value } })} placeholder="HH:mm" />
                <Select showSearch style={{ width: 220 }} aria-label={t('events.settings.timeZone')} value={schedule.timeZone} options={timeZoneOptions} onChange={(timeZone: string) => set({ schedule: { ...schedule, timeZone } })} />
              </>
            ) : null}
          </Flex>
        </Form.Item>
      </Flex>
      <Flex gap={24} wrap>
        <Form.Item label={t('events.settings.classes')} validateStatus={draft.classes.length ? undefined : 'error'} help={draft.classes.length ? undefined : t('events.settings.classesRequired')}>
          <ClassChoice value={draft.classes} onChange={(classes) => set({ classes })} />
        </Form.Item>
        <Form.Item label={t('events.settings.minScore')}>
          <InputNumber min={0} max={1} step={0.05} value={draft.minScore} onChange={(v) => set({ minScore: v ?? draft.minScore })} aria-label={t('events.settings.minScore')} data-event-field="minScore" />
        </Form.Item>
        <Form.Item label={t('events.settings.sensitivity')} extra={t('events.settings.sensitivityHint')} style={{ width: 260 }}>
          <Slider min={1} max={100} value={draft.sensitivity} onChange={(sensitivity) => set({ sensitivity })} aria-label={t('events.settings.sensitivity')} />
        </Form.Item>
      </Flex>
      <Form.Item label={`${t('events.settings.zones')} / ${t('events.settings.masks')}`}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('events.settings.zonesHint')}
        </Typography.Paragraph>
        <Flex gap={8} align="center" style={{ marginBottom: 8 }}>
          <Typography.Text type="secondary" data-testid="zone-picture-caption">
            {shown ? t('events.settings.pictureOf', { camera: cameraName, time: shownTime }) : t('events.settings.noPicture')}
          </Typography.Text>
          <Button
            size="small"
            loading={take.isPending || waitingFor !== undefined}
            data-testid="zone-take-picture"
            onClick={() =>
              take.mutate(
                { shipId, channelId, cameraId },
                {
                  onSuccess: (answer) => setWaitingFor(answer.pictureId),
                  onError: (error) => void message.error(t('events.settings.pictureFailed', { message: errorText(error) })),
                },
              )
            }
          >
            {t('events.settings.takePicture')}
          </Button>
        </Flex>
        <ZoneEditor
          pictureUrl={shown?.url}
          pictureAlt={t('events.settings.pictureOf', { camera: cameraName, time: shownTime })}
          zones={draft.zones}
          masks={draft.masks}
          onChange={(next) => set(next)}
        />
      </Form.Item>
      <Flex gap={8} justify="flex-end">
        <Button onClick={() => setDraft({ ...DEFAULT_CAMERA_EVENT_SETTINGS })}>{t('events.filter.reset')}</Button>
        <Button
          type="primary"
          loading={save.isPending}
          disabled={readOnly || !scheduleValid || draft.classes.length === 0}
          data-testid="camera-event-save"
          onClick={() =>
            save.mutate(
              { cameraId, settings: draft },
              {
                onSuccess: () => void message.success(t('events.settings.saved')),
                onError: (error) => void message.error(t('events.settings.saveFailed', { message: errorText(error) })),
              },
            )
          }
        >
          {t('events.settings.save')}
        </Button>
      </Flex>
    </Form>
  );
}

function NotifyRules({ orgId, readOnly }: { orgId: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const message = useMessage();
  const loaded = useOrgNotifyRules(orgId);
  const save = useSaveOrgNotifyRules();
  const [draft, setDraft] = useState<OrgNotifyRules>();
  useEffect(() => {
    if (loaded.data && !draft) setDraft(loaded.data);
  }, [loaded.data, draft]);
  if (loaded.isError) return <Alert type="error" showIcon message={t('events.settings.loadFailed', { message: errorText(loaded.error) })} />;
  if (!draft) return <Spin />;
  const between = draft.notifyFrom !== undefined || draft.notifyTo !== undefined;
  const hoursValid = !between || (isClockTime(draft.notifyFrom) && isClockTime(draft.notifyTo));
  return (
    <Form layout="vertical" data-testid="org-notify-rules">
      <Typography.Paragraph type="secondary">{t('events.settings.notifyHint')}</Typography.Paragraph>
      <Form.Item label={t('events.settings.notifyClasses')}>
        <div data-testid="notify-classes">
          <ClassChoice value={draft.notifyClasses} onChange={(notifyClasses) => setDraft({ ...draft, notifyClasses })} />
        </div>
      </Form.Item>
      <Form.Item label={t('events.settings.notifyHours')} validateStatus={hoursValid ? undefined : 'error'} help={hoursValid ? undefined : t('events.settings.timeRequired')}>
        <Flex gap={8} align="center" wrap>
          <Radio.Group
            value={between ? 'between' : 'allDay'}
            onChange={(e) =>
              setDraft(
                e.target.value === 'allDay'
                  ? withoutHours(draft)
                  : { ...draft, notifyFrom: '18:00', notifyTo: '06:00', timeZone: draft.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone },
              )
            }
            options={[
              { value: 'allDay', label: t('events.settings.notifyAllDay') },
              { value: 'between', label: t('events.settings.notifyBetween') },
            ]}
          />
          {between ? (
            <>
              <Input style={{ width: 80 }} aria-label={t('events.settings.from')} value={draft.notifyFrom ?? ''} onChange={(e) => setDraft({ ...draft, notifyFrom: e.target.value })} placeholder="HH:mm" data-event-field="notifyFrom" />
              <span>–</span>
              <Input style={{ width: 80 }} aria-label={t('events.settings.to')} value={draft.notifyTo ?? ''} onChange={(e) => setDraft({ ...draft, notifyTo: e.target.value })} placeholder="HH:mm" data-event-field="notifyTo" />
              <Select showSearch style={{ width: 220 }} aria-label={t('events.settings.timeZone')} value={draft.timeZone} options={timeZoneOptions} onChange={(timeZone: string) => setDraft({ ...draft, timeZone })} />
            </>
          ) : null}
        </Flex>
      </Form.Item>
      <Form.Item label={t('events.settings.fetchVideoClasses')} extra={t('events.settings.fetchVideoHint')}>
        <div data-testid="fetch-video-classes">
          <ClassChoice value={draft.fetchVideoClasses ?? []} onChange={(fetchVideoClasses) => setDraft({ ...draft, fetchVideoClasses })} />
        </div>
      </Form.Item>
      <Form.Item label={t('events.settings.seenBy')} extra={t('events.settings.seenByHint')}>
        <Radio.Group
          data-testid="events-seen-by"
          value={draft.seenBy ?? 'everyone'}
          onChange={(e) => setDraft({ ...draft, seenBy: e.target.value as 'everyone' | 'managers' })}
          options={[
            { value: 'everyone', label: t('events.settings.seenByEveryone') },
            { value: 'managers', label: t('events.settings.seenByManagers') },
          ]}
        />
      </Form.Item>
      <Flex justify="flex-end">
        <Button
          type="primary"
          loading={save.isPending}
          disabled={readOnly || !hoursValid}
          data-testid="org-notify-save"
          onClick={() =>
            save.mutate(
              { orgId, rules: draft },
              {
                onSuccess: () => void message.success(t('events.settings.saved')),
                onError: (error) => void message.error(t('events.settings.saveFailed', { message: errorText(error) })),
              },
            )
          }
        >
          {t('events.settings.save')}
        </Button>
      </Flex>
    </Form>
  );
}

/** The rule notifying all day: without its hours and their zone, every other field kept. */
function withoutHours(rules: OrgNotifyRules): OrgNotifyRules {
  const kept = { ...rules };
  delete kept.notifyFrom;
  delete kept.notifyTo;
  delete kept.timeZone;
  return kept;
}

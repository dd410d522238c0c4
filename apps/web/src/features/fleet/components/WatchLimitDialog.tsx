import { useState } from 'react';
import { Alert, Button, Flex, Form, InputNumber, Modal, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PlaybackAutoShutdown } from '@ship-cctv/protocol';
import { ApiError } from '../../../lib/api-client.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useSaveWatchLimit, useWatchLimit } from '../api/watch-limit.ts';

export interface WatchLimitDialogProps {
  /** The organisation whose limit is edited; the dialog is open while `open`. */
  org: { id: string; displayName: string } | undefined;
  open: boolean;
  onClose(): void;
}

/**
 * An organisation's continuous-watching limit (spec: 20 minutes, then a countdown and a pause the
 * operator can continue), as its managers set it: on/off, minutes, countdown seconds.
 */
export function WatchLimitDialog({ org, open, onClose }: WatchLimitDialogProps) {
  const { t } = useTranslation();
  const limit = useWatchLimit(open ? org?.id : undefined);
  return (
    <Modal open={open} title={org ? t('fleet.watchLimit.title', { org: org.displayName }) : t('fleet.watchLimit.chooseOrganisation')} onCancel={onClose} footer={null} destroyOnHidden>
      {!org ? (
        <Typography.Text type="secondary">{t('fleet.watchLimit.chooseOrganisation')}</Typography.Text>
      ) : limit.isError ? (
        <Alert type="error" showIcon title={t('fleet.watchLimit.loadFailed')} />
      ) : limit.data ? (
        <WatchLimitForm key={org.id} initial={limit.data} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function WatchLimitForm({ initial, onClose }: { initial: PlaybackAutoShutdown; onClose(): void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveWatchLimit();
  const [enabled, setEnabled] = useState(initial.enabled);
  const [minutes, setMinutes] = useState<number | null>(initial.minutes);
  const [countdown, setCountdown] = useState<number | null>(initial.countdownSeconds);
  const tooLong = minutes !== null && countdown !== null && countdown >= minutes * 60;
  const failure = save.error instanceof ApiError && save.error.code === 403 ? t('fleet.watchLimit.notAllowed') : save.error ? t('fleet.watchLimit.saveFailed', { message: save.error.message }) : undefined;

  const submit = () => {
    if (minutes === null || countdown === null || tooLong) return;
    save.mutate(
      { orgId: initial.orgId, enabled, minutes, countdownSeconds: countdown },
      {
        onSuccess: () => {
          void message.success(t('fleet.watchLimit.saved'));
          onClose();
        },
      },
    );
  };

  return (
    <Form layout="vertical" component="div">
      <Form.Item label={t('fleet.watchLimit.enabled')} htmlFor="watch-limit-enabled">
        <Switch id="watch-limit-enabled" aria-label={t('fleet.watchLimit.enabled')} checked={enabled} onChange={setEnabled} />
      </Form.Item>
      <Form.Item label={t('fleet.watchLimit.minutes')} htmlFor="watch-limit-minutes">
        <InputNumber id="watch-limit-minutes" aria-label={t('fleet.watchLimit.minutes')} min={1} max={1440} precision={0} value={minutes} onChange={setMinutes} disabled={!enabled} />
      </Form.Item>
      <Form.Item
        label={t('fleet.watchLimit.countdown')}
        htmlFor="watch-limit-countdown"
        validateStatus={tooLong ? 'error' : undefined}
        help={tooLong ? t('fleet.watchLimit.countdownTooLong') : undefined}
      >
        <InputNumber id="watch-limit-countdown" aria-label={t('fleet.watchLimit.countdown')} min={0} max={300} precision={0} value={countdown} onChange={setCountdown} disabled={!enabled} />
      </Form.Item>
      <Typography.Paragraph type="secondary">{t('fleet.watchLimit.hint')}</Typography.Paragraph>
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('fleet.watchLimit.cancel')}</Button>
        <Button type="primary" loading={save.isPending} disabled={minutes === null || countdown === null || tooLong} onClick={submit}>
          {t('fleet.watchLimit.save')}
        </Button>
      </Flex>
    </Form>
  );
}

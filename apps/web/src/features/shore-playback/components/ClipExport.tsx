import { useEffect, useState } from 'react';
import { DownloadOutlined, ScissorOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Button, DatePicker, Flex, Progress, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CODES, type ClipJob, type RecordingSummary } from '@ship-cctv/protocol';
import { ApiError } from '../../../lib/api-client.ts';
import { useCancelClip, useClipStatus, useCreateClip } from '../api/clip.ts';
import { CLIP_MAX_MS, clipProblem, defaultClip } from '../clip-range.ts';

/**
 * Export a clip of the recording being played (at most ten minutes): the range, a progress bar
 * while the server cuts it (and a button to stop it), then a download link.
 */
export function ClipExport({ recording, at }: { recording: RecordingSummary | undefined; at: number | undefined }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<{ start: number; end: number }>();
  const [job, setJob] = useState<ClipJob>();
  const create = useCreateClip();
  const cancel = useCancelClip();
  const status = useClipStatus(job);

  // A new recording offers 30 s from the time being shown.
  const recordingId = recording?.id;
  useEffect(() => {
    setJob(undefined);
    setRange(recording ? defaultClip(at ?? recording.start, recording) : undefined);
    // Only when the recording changes, not as the play head moves.
  }, [recordingId]);

  if (!recording || !range) {
    return <Typography.Text type="secondary">{t('shorePlayback.clip.chooseRecording')}</Typography.Text>;
  }
  const problem = clipProblem(range, recording);
  const current = status.data ?? job;
  const busy = create.isPending || current?.state === 'queued' || current?.state === 'running';

  const onExport = () => {
    create.mutate({ recordingId: recording.id, ...range }, { onSuccess: (created) => setJob(created) });
  };

  return (
    <Flex vertical gap={8} data-testid="clip-export">
      <Typography.Text strong>{t('shorePlayback.clip.title')}</Typography.Text>
      <Flex gap={8} align="center" wrap>
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm:ss' }}
          format="YYYY-MM-DD HH:mm:ss"
          allowClear={false}
          aria-label={t('shorePlayback.clip.range')}
          data-testid="clip-range"
          value={[dayjs(range.start), dayjs(range.end)]}
          disabledDate={(d: Dayjs) => d.endOf('day').valueOf() < recording.start || d.startOf('day').valueOf() > recording.end}
          onChange={(values) => {
            const [from, to] = values ?? [];
            if (from && to) setRange({ start: from.valueOf(), end: to.valueOf() });
          }}
        />
        <Button type="primary" icon={<ScissorOutlined />} disabled={problem !== undefined || busy} loading={busy} onClick={onExport} data-testid="clip-export-button">
          {busy ? t('shorePlayback.clip.exporting') : t('shorePlayback.clip.export')}
        </Button>
        {current && (current.state === 'queued' || current.state === 'running') ? (
          <Button icon={<StopOutlined />} loading={cancel.isPending} onClick={() => cancel.mutate(current.id, { onSuccess: (stopped) => setJob(stopped) })} data-testid="clip-cancel">
            {t('shorePlayback.clip.cancel')}
          </Button>
        ) : null}
        {current?.state === 'done' && current.downloadUrl ? (
          <Button icon={<DownloadOutlined />} href={current.downloadUrl} download data-testid="clip-download">
            {t('shorePlayback.clip.download')}
          </Button>
        ) : null}
      </Flex>
      {problem ? (
        <Typography.Text type="danger" data-testid="clip-problem">
          {t(`shorePlayback.clip.${problem}`, { minutes: CLIP_MAX_MS / 60_000 })}
        </Typography.Text>
      ) : null}
      {current && current.state !== 'cancelled' ? (
        <Progress percent={current.progress} status={current.state === 'failed' ? 'exception' : current.state === 'done' ? 'success' : 'active'} data-testid="clip-progress" />
      ) : null}
      {current?.state === 'cancelled' ? (
        <Typography.Text type="secondary" data-testid="clip-cancelled">
          {t('shorePlayback.clip.cancelled')}
        </Typography.Text>
      ) : null}
      {create.error || current?.state === 'failed' ? (
        <Alert
          type="error"
          showIcon
          title={
            create.error instanceof ApiError && create.error.code === CODES.tooMany
              ? t('shorePlayback.clip.tooMany')
              : t('shorePlayback.clip.failed', { message: current?.message ?? create.error?.message ?? '' })
          }
        />
      ) : null}
    </Flex>
  );
}

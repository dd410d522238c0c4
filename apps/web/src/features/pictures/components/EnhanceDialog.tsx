import { useState } from 'react';
import { CloudDownloadOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Modal, Progress, Segmented, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ENHANCE_MAX_INPUT, type PictureInfo } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { enhancedUrl, pictureUrl, useCancelEnhance, useCommitEnhance, useEnhanceJob } from '../api/pictures.ts';

/**
 * AI super-resolution of one picture on shore: ×2 or ×4 (a picture too large for ×4 says so),
 * progress tile by tile with cancel, then before and after side by side or one over the other.
 */
export function EnhanceDialog({ picture, onClose }: { picture: PictureInfo; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const commit = useCommitEnhance();
  const cancel = useCancelEnhance();
  const [jobId, setJobId] = useState<string>();
  const jobQuery = useEnhanceJob(jobId);
  const job = jobQuery.data;
  const [view, setView] = useState<'compare' | 'before' | 'after'>('compare');
  const fits = (scale: 2 | 4) => picture.width * picture.height <= ENHANCE_MAX_INPUT[scale].width * ENHANCE_MAX_INPUT[scale].height;
  const running = job !== undefined && (job.state === 'queued' || job.state === 'running');

  const start = (scale: 2 | 4) => commit.mutate({ pictureId: picture.id, scale }, { onSuccess: (j) => setJobId(j.jobId) });
  const scaleButton = (scale: 2 | 4) => {
    const button = (
      <Button icon={<ThunderboltOutlined />} disabled={!fits(scale) || running} loading={commit.isPending && commit.variables?.scale === scale} onClick={() => start(scale)}>
        {t(scale === 2 ? 'pictures.enhance.x2' : 'pictures.enhance.x4')}
      </Button>
    );
    return fits(scale) ? button : <Tooltip title={t('pictures.enhance.tooLarge', { scale, ...ENHANCE_MAX_INPUT[scale] })}>{button}</Tooltip>;
  };

  return (
    <Modal open width={1100} title={t('pictures.enhance.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Flex vertical gap={12}>
        <Flex gap={8} align="center">
          {scaleButton(2)}
          {scaleButton(4)}
          {job?.state === 'done' ? (
            <Segmented
              value={view}
              onChange={(v) => setView(v as 'compare' | 'before' | 'after')}
              options={[
                { value: 'compare', label: t('pictures.enhance.compare') },
                { value: 'before', label: t('pictures.enhance.before') },
                { value: 'after', label: t('pictures.enhance.after') },
              ]}
            />
          ) : null}
        </Flex>
        {commit.error ? <Alert type="error" showIcon message={t('pictures.enhance.failed', { message: commit.error.message })} /> : null}
        {/* Polling goes on; the last read's failure is said, not hidden behind a still progress bar. */}
        {jobQuery.error ? <Alert type="warning" showIcon message={t('pictures.enhance.progressFailed', { message: jobQuery.error.message })} /> : null}
        {running ? (
          <Flex gap={12} align="center" data-testid="enhance-progress">
            <Typography.Text>{job.state === 'queued' ? t('pictures.enhance.queued') : t('pictures.enhance.running')}</Typography.Text>
            <Progress percent={job.progress} status="active" style={{ flex: 1 }} aria-label={t('pictures.enhance.running')} />
            <Button danger onClick={() => cancel.mutate(job.jobId)} loading={cancel.isPending}>
              {t('pictures.enhance.cancel')}
            </Button>
          </Flex>
        ) : null}
        {job?.state === 'cancelled' ? <Alert type="info" showIcon message={t('pictures.enhance.cancelled')} data-testid="enhance-cancelled" /> : null}
        {job?.state === 'failed' ? <Alert type="error" showIcon message={t('pictures.enhance.failed', { message: job.message ?? '' })} /> : null}
        {job?.state === 'done' ? (
          <Flex vertical gap={6}>
            <Flex gap={8} style={{ overflow: 'auto', maxHeight: 560 }}>
              {view !== 'after' ? (
                <figure style={{ margin: 0, flex: 1 }}>
                  <figcaption>{t('pictures.enhance.before')}</figcaption>
                  {/* The original drawn at the enhanced size: the difference is in the detail, not the size. */}
                  <img src={pictureUrl(picture.id)} alt={t('pictures.enhance.before')} style={{ width: '100%', imageRendering: 'auto' }} />
                </figure>
              ) : null}
              {view !== 'before' ? (
                <figure style={{ margin: 0, flex: 1 }}>
                  <figcaption>{t('pictures.enhance.after')}</figcaption>
                  <img src={enhancedUrl(job.jobId)} alt={t('pictures.enhance.after')} style={{ width: '100%' }} data-testid="enhanced-picture" />
                </figure>
              ) : null}
            </Flex>
            <Flex gap={16}>
              <Typography.Text type="secondary">{t('pictures.enhance.result', { width: job.width, height: job.height, size: formatBytes(job.bytes ?? 0, i18n.language) })}</Typography.Text>
              <a href={enhancedUrl(job.jobId)} download={`${picture.id}-x${job.scale}.jpg`}>
                <CloudDownloadOutlined /> {t('pictures.enhance.download')}
              </a>
            </Flex>
          </Flex>
        ) : null}
      </Flex>
    </Modal>
  );
}

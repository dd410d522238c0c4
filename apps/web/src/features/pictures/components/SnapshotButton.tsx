import { useEffect, useRef, useState } from 'react';
import { CameraOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/format-bytes.ts';
import type { CellControl, CellControlProps } from '../../../shared/player-cell/index.ts';
import { pictureUrl, useTakeSnapshot } from '../api/pictures.ts';
import { transferView, usePictureEvents } from '../hooks/usePictureEvents.ts';
import { snapshotFailure, snapshotRequestFailure } from '../snapshot-reason.ts';
import { useMessage } from '../../../shared/message.tsx';

/**
 * Snapshot now, in a live cell's title bar: one click asks the ship for a picture of the channel;
 * a message follows it — taken on the ship, its bytes on their way (or waiting for the link), on
 * shore with a link to it, or why it failed.
 */
export function SnapshotButton({ source, getPopupContainer }: CellControlProps) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const take = useTakeSnapshot();
  const [pending, setPending] = useState<string>();
  const events = usePictureEvents(source.shipName);
  const view = transferView(pending ? events.get(pending) : undefined);
  const shown = useRef<string>('');

  useEffect(() => {
    if (!pending) return;
    const size = (n: number) => formatBytes(n, i18n.language);
    const key = `snapshot-${pending}`;
    const state = `${view.kind}:${'bytes' in view ? view.bytes : ''}`;
    if (shown.current === state) return;
    shown.current = state;
    if (view.kind === 'progress') {
      const percent = view.total > 0 ? ` ${Math.floor((100 * view.bytes) / view.total)}%` : '';
      message.open({ key, type: 'loading', content: `${t('pictures.snapshot.taken', { size: size(view.total) })}${percent}`, duration: 0 });
    } else if (view.kind === 'waiting') {
      message.open({ key, type: 'info', content: t('pictures.snapshot.waiting'), duration: 0 });
    } else if (view.kind === 'stored') {
      message.open({
        key,
        type: 'success',
        duration: 8,
        content: (
          <span>
            {t('pictures.snapshot.arrived', { size: size(view.total) })}{' '}
            <a href={pictureUrl(pending)} target="_blank" rel="noreferrer">
              {t('pictures.snapshot.open')}
            </a>
          </span>
        ),
      });
      setPending(undefined);
    } else if (view.kind === 'failed') {
      const text = view.code === 'rejected' ? t('pictures.snapshot.transferFailed') : snapshotFailure(t, view.code, view.message);
      message.open({ key, type: 'error', content: text, duration: 6 });
      if (view.code !== 'rejected') setPending(undefined);
    }
  }, [pending, view, message, t, i18n.language]);

  const click = () => {
    take.mutate(
      { shipId: source.shipId, channelId: source.channelId, cameraId: source.cameraId },
      {
        onSuccess: (answer) => {
          shown.current = '';
          setPending(answer.pictureId);
          message.open({ key: `snapshot-${answer.pictureId}`, type: 'loading', content: t('pictures.snapshot.requested'), duration: 0 });
        },
        onError: (err) => message.error(snapshotRequestFailure(t, err)),
      },
    );
  };

  return (
    <Tooltip title={t('pictures.snapshot.button')} getPopupContainer={getPopupContainer}>
      <Button size="small" type="text" aria-label={t('pictures.snapshot.button')} icon={<CameraOutlined />} loading={take.isPending} onClick={click} />
    </Tooltip>
  );
}

export const SNAPSHOT_CONTROL: CellControl = { id: 'snapshot', placement: 'bar', Component: SnapshotButton };

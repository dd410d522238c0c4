import { useEffect, useRef, useState } from 'react';
import { PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import { Button, Flex, Segmented, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { PLAYBACK_SPEEDS, type RecordingSummary } from '@ship-cctv/protocol';
import { segmentUrl, useSegments } from '../api/segments.ts';
import { formatTime } from '../format.ts';
import { useSegmentPlayer } from '../hooks/useSegmentPlayer.ts';

export interface ShorePlayerProps {
  /** What to play and from when; a new `seq` asks again (a seek within the same recording). */
  request: { recording: RecordingSummary; at: number; seq: number } | undefined;
  apiBase: string;
  title: string | undefined;
  onTime(time: number | undefined): void;
}

/** The shore recording player: the video, play/pause, speeds 1–16× and the recorded time shown. */
export function ShorePlayer({ request, apiBase, title, onTime }: ShorePlayerProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const { player, snapshot } = useSegmentPlayer(video);
  const segments = useSegments(request?.recording.id);
  const opened = useRef<string | undefined>(undefined);
  const handled = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!player || !request || !segments.data || segments.data.length === 0) return;
    // A refetched segment list (the recording grew) does not move the play head; a new request does.
    if (handled.current === request.seq) return;
    handled.current = request.seq;
    const { recording, at } = request;
    if (opened.current === recording.id) {
      void player.seek(at);
      return;
    }
    opened.current = recording.id;
    const list = segments.data.map((s) => ({ id: s.id, start: s.start, end: s.end, mime: s.mime, url: segmentUrl(apiBase, s.id) }));
    void player.open(list, recording.start, at);
  }, [player, request, segments.data, apiBase]);

  useEffect(() => onTime(snapshot.time), [snapshot.time, onTime]);

  const speeds = [...PLAYBACK_SPEEDS].sort((a, b) => a - b);
  const loading = request !== undefined && (segments.isLoading || snapshot.state === 'loading');
  const failed = segments.isError || snapshot.state === 'failed';

  return (
    <Flex vertical gap={8} aria-label={t('shorePlayback.player.label')} data-testid="shore-player" data-state={snapshot.state} data-seek-ms={snapshot.lastSeekMs ?? ''}>
      <div style={{ position: 'relative', background: '#000', aspectRatio: '16 / 9', maxHeight: 440, borderRadius: token.borderRadius, overflow: 'hidden' }}>
        <video ref={setVideo} muted playsInline style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} data-testid="shore-video" />
        {!request || loading || failed || snapshot.state === 'ended' ? (
          <Flex align="center" justify="center" vertical gap={8} style={{ position: 'absolute', inset: 0, color: '#fff', pointerEvents: 'none' }}>
            {loading ? <Spin /> : null}
            <Typography.Text style={{ color: '#fff' }} data-testid="player-overlay">
              {!request
                ? t('shorePlayback.player.choose')
                : failed
                  ? t('shorePlayback.player.failed')
                  : loading
                    ? t('shorePlayback.player.loading')
                    : t('shorePlayback.player.ended')}
            </Typography.Text>
          </Flex>
        ) : null}
      </div>
      <Flex align="center" gap={12} wrap>
        <Button
          icon={snapshot.state === 'playing' ? <PauseOutlined /> : <CaretRightOutlined />}
          disabled={!request}
          aria-label={snapshot.state === 'playing' ? t('shorePlayback.player.pause') : t('shorePlayback.player.play')}
          onClick={() => (snapshot.state === 'playing' ? player?.pause() : player?.play())}
        />
        <Typography.Text type="secondary">{t('shorePlayback.player.speed')}</Typography.Text>
        <Segmented
          size="small"
          data-testid="speed"
          value={snapshot.speed}
          options={speeds.map((s) => ({ value: s, label: t('shorePlayback.player.speedOption', { speed: s }) }))}
          onChange={(value) => player?.setSpeed(Number(value))}
        />
        <Typography.Text>
          {t('shorePlayback.player.recordedTime')}:{' '}
          <Typography.Text strong data-testid="recorded-time" data-time={snapshot.time !== undefined ? Math.round(snapshot.time) : ''}>
            {snapshot.time !== undefined ? formatTime(snapshot.time) : '—'}
          </Typography.Text>
        </Typography.Text>
        {title ? <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320 }}>{title}</Typography.Text> : null}
      </Flex>
    </Flex>
  );
}

import { useState } from 'react';
import { CaretRightOutlined, CloseOutlined, HistoryOutlined, PauseOutlined } from '@ant-design/icons';
import { Button, Flex, Radio, Slider, Spin, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PlaybackSpeed } from '@ship-cctv/protocol';
import { useVodSpans } from '../api/vod-query.ts';
import { usePlaybackScreen } from '../hooks/usePlaybackScreen.ts';
import {
  formatInTimeZone,
  formatUtcOffset,
  offsetMinutesAt,
  sideBySide,
  SPEED_CHOICES,
  timeZoneLabel,
  type PlaybackOptions,
  type TextLanguage,
  type ZonedTime,
} from '../options.ts';
import { seekValue, type PlaybackOverlay } from '../playback-view.ts';
import { RecordedStrip } from './RecordedStrip.tsx';
import styles from './PlaybackPlayer.module.css';
import type { PlaybackSource } from './PlaybackSourceTree.tsx';

export interface PlaybackPlayerProps {
  source: PlaybackSource;
  options: PlaybackOptions;
  onChangeRange(): void;
  onClose(): void;
}

/**
 * Ship-end playback of one camera over a range (spec §2 /live/recordlivevideo): the picture, the
 * recorded time on screen in the chosen zone with the ship's and the operator's clocks beside it,
 * pause/resume, speed, a seek bar over the range with the ship's recorded spans and its gaps with
 * their cause (tooltip and legend), and the errors.
 */
export function PlaybackPlayer({ source, options, onChangeRange, onClose }: PlaybackPlayerProps) {
  const { t, i18n } = useTranslation();
  const language: TextLanguage = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { videoRef, playback, view, position, zone, overlay, banner, shown, clickToPlay } = usePlaybackScreen(source, options, 250);
  const range = { start: options.start, end: options.end };

  const [dragging, setDragging] = useState<number>();
  const spans = useVodSpans(source.shipId, source.cameraId, options.start, options.end);

  const formatZone = (epoch: number) => (zone ? formatInTimeZone(epoch, zone) : new Date(epoch).toISOString());
  const zoneText = zone ? timeZoneLabel(zone, language, shown ?? options.start) : '';
  const clocks = shown === undefined ? undefined : sideBySide(shown, source.shipTimeZone);
  const paused = position?.paused ?? false;
  const speed = position?.speed ?? options.speed;

  return (
    <section className={styles.player} aria-label={t('playback.player.label')} data-camera-id={source.cameraId}>
      <Flex align="center" gap={12} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {source.title} <Typography.Text type="secondary">{source.shipDisplayName}</Typography.Text>
        </Typography.Title>
        <Typography.Text data-testid="playback-range">
          {t('playback.player.range')}: {formatZone(options.start)} — {formatZone(options.end)}
        </Typography.Text>
        <Typography.Text type="secondary" data-testid="playback-zone">
          {zoneText}
        </Typography.Text>
        <Flex gap={8} style={{ marginInlineStart: 'auto' }}>
          <Button icon={<HistoryOutlined />} aria-label={t('playback.player.changeRange')} onClick={onChangeRange}>
            {t('playback.player.changeRange')}
          </Button>
          <Tooltip title={t('playback.player.close')}>
            <Button icon={<CloseOutlined />} aria-label={t('playback.player.close')} onClick={onClose} />
          </Tooltip>
        </Flex>
      </Flex>

      <div className={styles.screen} data-state={view.state} data-testid="playback-screen">
        <video ref={videoRef} className={styles.video} muted playsInline aria-label={source.title} />
        <Overlay overlay={overlay} onReplay={playback.replay} onChangeRange={onChangeRange} onContinue={playback.continueWatching} onClickToPlay={clickToPlay} />
        {banner?.kind === 'limitCountdown' ? (
          <div className={styles.banner} role="status" aria-live="polite">
            <span>{t('playerCell.limitCountdown', { seconds: banner.seconds })}</span>
            <Button size="small" type="primary" onClick={playback.continueWatching}>
              {t('playerCell.continue')}
            </Button>
          </div>
        ) : banner ? (
          <div className={styles.banner} role="status">
            {t(`playerCell.${banner.kind}`)}
          </div>
        ) : null}
        {paused && overlay.kind === 'none' ? <div className={styles.pausedBadge}>{t('playback.player.paused')}</div> : null}
      </div>

      <div className={styles.clocks}>
        <Clock label={t('playback.player.recordedTime')} testId="recorded-time" epoch={shown} value={shown === undefined ? undefined : formatZone(shown)} detail={zone && shown !== undefined ? formatUtcOffset(offsetMinutesAt(zone, shown)) : ''} />
        <Clock label={t('playback.player.shipTime')} testId="ship-time" epoch={shown} value={clocks?.ship?.text} detail={zoneDetail(clocks?.ship)} />
        <Clock label={t('playback.player.operatorTime')} testId="operator-time" epoch={shown} value={clocks?.operator.text} detail={zoneDetail(clocks?.operator)} />
      </div>

      <div className={styles.controls}>
        <Button
          icon={paused ? <CaretRightOutlined /> : <PauseOutlined />}
          aria-label={paused ? t('playback.player.resume') : t('playback.player.pause')}
          disabled={view.state !== 'playing'}
          onClick={paused ? playback.resume : playback.pause}
        >
          {paused ? t('playback.player.resume') : t('playback.player.pause')}
        </Button>
        <Radio.Group
          aria-label={t('playback.player.speed')}
          optionType="button"
          size="small"
          value={speed}
          onChange={(e) => playback.setSpeed(e.target.value as PlaybackSpeed)}
          options={SPEED_CHOICES.map((s) => ({ value: s, label: t('playback.options.speedOption', { speed: s }) }))}
        />
        <div className={styles.seek}>
          <Slider
            aria-label={t('playback.player.position')}
            min={range.start}
            max={range.end}
            step={1000}
            value={dragging ?? seekValue(shown, range)}
            disabled={view.state === 'idle' || view.state === 'error'}
            tooltip={{ formatter: (value) => (value === undefined ? '' : formatZone(value)) }}
            onChange={(value) => setDragging(value)}
            onChangeComplete={(value) => {
              setDragging(undefined);
              playback.seek(value);
            }}
          />
          <RecordedStrip result={spans.data} failed={spans.isError} range={range} formatTime={formatZone} />
        </div>
      </div>
    </section>
  );
}

function zoneDetail(time: ZonedTime | undefined): string {
  return time ? `${time.zone} ${time.offset}` : '';
}

function Clock({ label, value, detail, testId, epoch }: { label: string; value: string | undefined; detail: string; testId: string; epoch: number | undefined }) {
  return (
    <div className={styles.clock}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span className={styles.clockValue} data-testid={testId} data-epoch={epoch === undefined ? undefined : Math.round(epoch)}>
        {value ?? '—'}
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {detail}
      </Typography.Text>
    </div>
  );
}

function Overlay({
  overlay,
  onReplay,
  onChangeRange,
  onContinue,
  onClickToPlay,
}: {
  overlay: PlaybackOverlay;
  onReplay(): void;
  onChangeRange(): void;
  onContinue(): void;
  onClickToPlay(): void;
}) {
  const { t } = useTranslation();
  if (overlay.kind === 'none') return null;
  if (overlay.kind === 'busy') {
    return (
      <div className={styles.overlay} role="status" aria-live="polite">
        <Spin />
        <span>{t(overlay.text, { seconds: overlay.seconds ?? 0 })}</span>
      </div>
    );
  }
  const action =
    overlay.action === 'replay'
      ? { label: t('playback.player.replay'), run: onReplay }
      : overlay.action === 'changeRange'
        ? { label: t('playback.player.changeRange'), run: onChangeRange }
        : overlay.action === 'continue'
          ? { label: t('playerCell.continue'), run: onContinue }
          : overlay.action === 'clickToPlay'
            ? { label: t('playerCell.clickToPlay'), run: onClickToPlay }
            : undefined;
  return (
    <div className={styles.overlay} data-tone={overlay.tone} role={overlay.tone === 'error' ? 'alert' : 'status'}>
      <span>{overlay.text === 'playerCell.clickToPlay' ? null : t(overlay.text)}</span>
      {overlay.hint ? <span className={styles.hint}>{t(overlay.hint)}</span> : null}
      {action ? (
        <Button type="primary" onClick={action.run}>
          {action.label}
        </Button>
      ) : null}
    </div>
  );
}

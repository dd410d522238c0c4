import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, ConfigProvider, theme, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { codecLabel, dest } from '@ship-cctv/protocol';
import type { CodecInfo } from '@ship-cctv/player';
import { useRuntimeConfig } from '../runtime-config.tsx';
import { type MediaListState, toKnownLink, useDestination, useShipStatus } from '../../lib/realtime/index.ts';
import { useCellControls } from './cell-controls.tsx';
import type { PlayableSource } from '../playable-source.ts';
import { useCellDefinition, useLinkPolicies } from '../cell-definition/index.ts';
import { useFullscreen } from './useFullscreen.ts';
import { createLivePlayer } from './live-player.ts';
import { useMsePlayer } from './useMsePlayer.ts';
import { useNow } from './useNow.ts';
import { usePlayerStats } from './usePlayerStats.ts';
import { mediaSocketUrl } from './media-url.ts';
import { bannerFor, needsClock, overlayFor } from './player-view.ts';
import { CellBanner, CellOverlay } from './CellOverlay.tsx';
import { DefinitionSelect } from './DefinitionSelect.tsx';
import { CloseIcon, FullscreenIcon, MoreIcon, StatsIcon } from './icons.tsx';
import styles from './PlayerCell.module.css';
import { StatsPanel } from './StatsPanel.tsx';
import { SoundControl } from './SoundControl.tsx';
import { soundCodecOf } from './sound.ts';

/** The cell is a black video surface: its controls use antd's dark algorithm to stay readable. */
const CELL_THEME = { algorithm: theme.darkAlgorithm, token: { fontSize: 12 } };

export interface PlayerCellProps {
  source: PlayableSource;
  /** The close button; without it the cell has none (a carousel's cells come and go with its pages). */
  onClose?(cameraId: string): void;
  /** The carousel this cell runs for: sent with the play command (no continuous-watching limit). */
  carouselId?: string;
  /** The definition to start with (absent: the ship's default); the operator may still change it. */
  templateId?: number;
  /**
   * The grid the cell sits in (1, 4, 9 or 16): the cell then asks for the definition its
   * organisation's link policy gives this grid size, full screen and the ship's link — unless
   * `templateId` or the operator's own pick says otherwise. Absent: the ship's default.
   */
  gridSize?: number;
  /** The grid's selected cell (a channel opened into a full grid replaces it): outlined. */
  selected?: boolean;
  /** A click anywhere in the cell selects it. */
  onSelect?(cameraId: string): void;
}

/**
 * One live channel of the play grid: its own MsePlayer, title, state, definition and controls —
 * its own and those features add (shared/cell-controls.tsx: PTZ, talk), in the title bar or over
 * the picture.
 */
export function PlayerCell({ source, onClose, carouselId, templateId: initialTemplateId, gridSize, selected, onSelect }: PlayerCellProps) {
  const { t } = useTranslation();
  const { mediaPath } = useRuntimeConfig();
  const cellRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [showStats, setShowStats] = useState(false);
  // A narrow cell keeps its secondary controls behind "more" (a CSS container query hides them).
  const [moreOpen, setMoreOpen] = useState(false);
  const fullscreen = useFullscreen(cellRef);
  const cellView = gridSize === undefined ? undefined : { gridSize, fullScreen: fullscreen.active };
  const definition = useCellDefinition(source, cellView, initialTemplateId);
  const extra = useCellControls();
  // Surfaces (stills) may show the cell instead of video: no stream until each has said whether it does.
  const surfaces = extra.filter((c) => c.placement === 'surface');
  const [covered, setCovered] = useState<Record<string, boolean>>({});
  const covers = useMemo(() => Object.fromEntries(extra.map((c) => [c.id, (on: boolean) => setCovered((s) => (s[c.id] === on ? s : { ...s, [c.id]: on }))])), [extra]);
  const cover = surfaces.some((c) => covered[c.id]);
  const [barSlot, setBarSlot] = useState<HTMLElement | null>(null);
  const policies = useLinkPolicies(source.orgId);

  const url = mediaSocketUrl(mediaPath, window.location);
  const ready = definition.ready && !cover && surfaces.every((c) => covered[c.id] !== undefined);
  const { player, view, replay, continueWatching } = useMsePlayer(videoRef, url, source.cameraId, definition.templateId, source.waitTime, carouselId, ready, createLivePlayer);
  const { linkType } = useShipStatus(source.shipName);
  // The player's live latency target follows the link: low on 4G/LEO, room for jitter over satellite.
  useEffect(() => player?.setLink(toKnownLink(linkType)), [player, linkType]);
  const now = useNow(needsClock(view, performance.now()));
  // The camera's live status as the ship reports it (undefined until reported: nothing is assumed).
  const cameraStatus = useDestination<MediaListState>(dest.mediaList(source.instanceId ?? source.shipName))?.get(source.cameraId);
  const overlay = overlayFor(view, now, linkType === 'OFFLINE', cameraStatus?.online === false);
  const banner = bannerFor(view, now);
  const stats = usePlayerStats(player, showStats);

  // The browser refused to start muted video without a gesture: this click is the gesture.
  const clickToPlay = useCallback(() => void videoRef.current?.play().catch(() => undefined), []);
  const popupContainer = useCallback(() => cellRef.current ?? document.body, []);
  const title = source.title;
  const barControls = extra.filter((c) => c.placement === 'bar');
  const overlayControls = extra.filter((c) => c.placement === 'overlay');
  const hasSound = soundCodecOf(view.codec?.mime) !== undefined;

  return (
    <ConfigProvider theme={CELL_THEME}>
      <div
        ref={cellRef}
        className={styles.cell}
        role="region"
        aria-label={`${title} ${source.shipDisplayName}`}
        data-camera-id={source.cameraId}
        data-state={view.state}
        data-selected={selected ? '' : undefined}
        onPointerDown={onSelect ? () => onSelect(source.cameraId) : undefined}
      >
        <video ref={videoRef} className={styles.video} muted playsInline aria-label={title} onDoubleClick={fullscreen.toggle} />
        <div className={styles.bar}>
          <span className={styles.title} title={`${title} · ${source.shipDisplayName}`}>
            {title}
            <span className={styles.ship}>{source.shipDisplayName}</span>
          </span>
          {/* Secondary controls: in the bar when the cell is wide, behind "more" when narrow (one copy either way, so a talk or a menu survives the switch). */}
          <span className={styles.controls} data-cell-more={moreOpen ? 'open' : 'closed'}>
            <span ref={setBarSlot} />
            {barControls.map(({ id, Component }) => (
              <Component key={id} source={source} getPopupContainer={popupContainer} />
            ))}
            {view.codec ? <CodecBadge codec={view.codec} /> : null}
            {hasSound ? <SoundControl videoRef={videoRef} player={player} getPopupContainer={popupContainer} /> : null}
            <DefinitionSelect
              orgId={source.orgId}
              shipId={source.shipId}
              // What plays (shore may have dropped it to the lowest), else what the cell asks for.
              value={view.codec?.templateId ?? definition.templateId}
              onChange={definition.choose}
              reason={definition.reason}
              getPopupContainer={popupContainer}
            />
            <Tooltip title={t('playerCell.stats')} getPopupContainer={popupContainer}>
              <Button
                size="small"
                type="text"
                aria-label={t('playerCell.stats')}
                aria-pressed={showStats}
                icon={<StatsIcon />}
                onClick={() => setShowStats((v) => !v)}
              />
            </Tooltip>
          </span>
          {/* Always in the bar, whatever the cell's width: full screen and close. */}
          <span className={styles.primary}>
            <span className={styles.more}>
              <Tooltip title={t('playerCell.more')} getPopupContainer={popupContainer}>
                <Button size="small" type="text" aria-label={t('playerCell.more')} aria-expanded={moreOpen} icon={<MoreIcon />} onClick={() => setMoreOpen((v) => !v)} />
              </Tooltip>
            </span>
            <Tooltip title={fullscreen.active ? t('playerCell.exitFullscreen') : t('playerCell.fullscreen')} getPopupContainer={popupContainer}>
              <Button
                size="small"
                type="text"
                aria-label={fullscreen.active ? t('playerCell.exitFullscreen') : t('playerCell.fullscreen')}
                icon={<FullscreenIcon exit={fullscreen.active} />}
                onClick={fullscreen.toggle}
              />
            </Tooltip>
            {onClose ? (
              <Tooltip title={t('playerCell.close')} getPopupContainer={popupContainer}>
                <Button size="small" type="text" aria-label={t('playerCell.close')} icon={<CloseIcon />} onClick={() => onClose(source.cameraId)} />
              </Tooltip>
            ) : null}
          </span>
        </div>
        {overlayControls.length > 0 ? (
          // Over a surface (stills), the controls go to the top: its caption and "switch to video" button take the bottom.
          <div className={styles.slot} data-cell-slot={cover ? 'top' : 'bottom'}>
            {overlayControls.map(({ id, Component }) => (
              <Component key={id} source={source} getPopupContainer={popupContainer} />
            ))}
          </div>
        ) : null}
        {surfaces.map(({ id, Component }) => (
          <Component key={id} source={source} getPopupContainer={popupContainer} view={cellView} templateId={definition.templateId} refusal={view.error?.kind === 'server' ? view.error.code : undefined} policies={policies.isError ? null : policies.data?.byLink} onCover={covers[id]} bar={barSlot} />
        ))}
        {cover ? null : <CellOverlay overlay={overlay} onReplay={replay} onContinue={continueWatching} onClickToPlay={clickToPlay} />}
        {banner && !cover ? <CellBanner banner={banner} onContinue={continueWatching} /> : null}
        {showStats ? <StatsPanel stats={stats} linkType={linkType} /> : null}
      </div>
    </ConfigProvider>
  );
}

/**
 * The codec that plays, in the cell's bar: `H.264`, `AV1`, `H.265`; an H.265 camera transcoded on
 * the ship for this browser shows `H.265→H.264`. Its title says it in words.
 */
function CodecBadge({ codec }: { codec: CodecInfo }) {
  const { t } = useTranslation();
  const label = codecLabel(codec.mime);
  const camera = codec.cameraCodec === 'h265' ? 'H.265' : codec.cameraCodec === 'h264' ? 'H.264' : undefined;
  const transcoded = codec.transcoded === true && camera !== undefined && camera !== label;
  const title = transcoded
    ? t('playerCell.codecTranscoded', { codec: label, camera })
    : camera === 'H.265' && codec.transcoded === false
      ? t('playerCell.codecAsSent', { codec: label })
      : t('playerCell.codecPlaying', { codec: label });
  return (
    <span className={styles.codec} data-codec={label} data-transcoded={transcoded ? '' : undefined} title={title}>
      {transcoded ? `${camera}→${label}` : label}
    </span>
  );
}

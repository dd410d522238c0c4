import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { useShipStatus } from '../../../lib/realtime/index.ts';
import type { CellControl, CellControlProps } from '../../../shared/player-cell/index.ts';
import { shipFailureCodeText } from '../../../shared/ship-failure/index.ts';
import { stillUrl } from '../api/stills.ts';
import { type StillState, useStill } from '../hooks/useStill.ts';
import { ageOf, bytesPerHour, costSample, stillsModeFor } from '../still-mode.ts';
import { useStillsTranslation } from '../texts.ts';
import styles from './stills.module.css';

/** How long a cell waits for the ship's first status before it takes the ship as offline. */
const LINK_WAIT_MS = 2_000;

/**
 * Stills mode in a live cell (issue 19 item 3), a 'surface' of the player cell: when the
 * organisation's policy for the ship's link says stills (and the cell is in a grid, not full
 * screen, and not switched to video by the operator), or the ship's live budget is used up with
 * "pictures only", the cell shows the camera's latest picture instead of starting a stream — with
 * its mode, the picture's age and what it costs an hour — and a "switch to video" action. The
 * operator's choice sticks for the cell; a button in the title bar switches back.
 */
export function StillsSurface({ source, view, templateId, refusal, policies, onCover, bar }: CellControlProps) {
  const { t } = useStillsTranslation();
  const { linkType } = useShipStatus(source.shipName);
  const [choseVideo, setChoseVideo] = useState(false);
  // A ship that drops offline keeps the mode of its last link: the last picture stays, with its age.
  const [lastLink, setLastLink] = useState(linkType === 'OFFLINE' ? undefined : linkType);
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (linkType !== 'OFFLINE') setLastLink(linkType);
  }, [linkType]);
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), LINK_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const link = linkType !== 'OFFLINE' ? linkType : (lastLink ?? (waited ? 'OFFLINE' : undefined));
  const mode = stillsModeFor({ policies: policies ?? undefined, policiesFailed: policies === null, link, view, refusal, operatorChoseVideo: choseVideo });
  const covers = mode.kind === 'undecided' ? undefined : mode.kind === 'stills';
  useEffect(() => {
    if (covers !== undefined) onCover?.(covers);
  }, [covers, onCover]);

  if (mode.kind === 'video') {
    if (!mode.canGoBack || !bar) return null;
    return createPortal(
      <button type="button" className={styles.barButton} title={t('stills.toStills')} aria-label={t('stills.toStills')} onClick={() => setChoseVideo(false)}>
        <PictureIcon />
      </button>,
      bar,
    );
  }
  if (mode.kind !== 'stills') return null;
  return (
    <StillsView
      cameraId={source.cameraId}
      shipName={source.shipName}
      title={source.title}
      templateId={templateId}
      everySeconds={mode.everySeconds}
      because={mode.because}
      linkName={t(`cellDefinition.link.${mode.link}`)}
      onVideo={() => setChoseVideo(true)}
    />
  );
}

interface StillsViewProps {
  cameraId: string;
  shipName: string;
  title: string;
  templateId: number | undefined;
  everySeconds: number;
  because: 'policy' | 'budget';
  linkName: string;
  onVideo(): void;
}

// No antd here: the chunk would split antd's shared chunks that the first screen loads (its budget).
function StillsView({ cameraId, shipName, title, templateId, everySeconds: policyEvery, because, linkName, onVideo }: StillsViewProps) {
  const { t, i18n } = useStillsTranslation();
  const still = useStill(cameraId, templateId, shipName);
  const { answer } = still;
  const now = useClock(1000);
  const everySeconds = answer?.everySeconds ?? policyEvery;
  const perHour = answer ? bytesPerHour(costSample(answer), everySeconds) : undefined;
  const sample = answer ? costSample(answer).length : 0;
  const age = answer?.picture ? ageOf(answer.picture.takenAt, now) : undefined;
  const status = statusText(still, t);

  return (
    <div className={styles.surface} data-stills-mode={because}>
      {answer?.picture ? (
        <StillImage pictureId={answer.picture.pictureId} alt={title} />
      ) : (
        <div className={styles.empty}>{answer && !answer.pending ? t('stills.noPicture') : t('stills.first')}</div>
      )}
      <div className={styles.caption}>
        <span className={styles.mode} title={because === 'policy' ? t('stills.why', { link: linkName }) : undefined} data-still-mode-text="">
          {because === 'budget' ? t('stills.modeBudget') : t('stills.mode', { seconds: everySeconds })}
        </span>
        {age ? <span data-still-age="">{age.unit === 'seconds' ? t('stills.ageSeconds', { seconds: age.value }) : age.unit === 'minutes' ? t('stills.ageMinutes', { minutes: age.value }) : t('stills.ageHours', { hours: age.value })}</span> : null}
        {perHour !== undefined ? (
          <span title={t('stills.costHint', { count: sample, shots: Math.round(3600 / everySeconds) })} data-still-cost={perHour}>
            {t('stills.cost', { size: formatBytes(perHour, i18n.language) })}
          </span>
        ) : null}
        {status ? <span className={styles.status} data-still-status="">{status}</span> : null}
        {because === 'policy' ? (
          <button type="button" className={styles.toVideo} onClick={onVideo}>
            {t('stills.toVideo')}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** What the cell says of the next picture: on its way, failed, the ship offline, the pictures budget used up, or the request failed. */
function statusText({ answer, error, transfer }: StillState, t: ReturnType<typeof useStillsTranslation>['t']): string | undefined {
  if (error) return t('stills.error', { message: error.message });
  if (!answer) return undefined;
  if (answer.offline) return answer.picture ? t('stills.offline') : t('shipFailure.offline');
  if (answer.picturesBudgetUsedUp) return t('stills.picturesBudget');
  const pending = answer.pending;
  if (!pending) return undefined;
  if (pending.state === 'failed') {
    const code = pending.code ?? '';
    // Why asking the ship failed is worded once for every feature; the camera's own failure here.
    const reason = code === 'cameraOffline' ? t('stills.failure.cameraOffline') : shipFailureCodeText(t, code);
    return t('stills.failed', { reason: reason ?? pending.message ?? code });
  }
  if (transfer?.event === 'progress' && transfer.total) return t('stills.crossingPercent', { percent: Math.floor((100 * (transfer.bytes ?? 0)) / transfer.total) });
  return pending.state === 'taken' ? t('stills.crossing') : t('stills.taking');
}

/** The picture: its thumbnail at once, the full picture once the browser has it. */
function StillImage({ pictureId, alt }: { pictureId: string; alt: string }) {
  const [loaded, setLoaded] = useState<string>();
  useEffect(() => {
    const img = new Image();
    img.onload = () => setLoaded(pictureId);
    img.src = stillUrl(pictureId, false);
    return () => {
      img.onload = null;
    };
  }, [pictureId]);
  const full = loaded === pictureId;
  return <img className={styles.picture} src={stillUrl(pictureId, !full)} alt={alt} data-picture-id={pictureId} data-still-size={full ? 'full' : 'thumb'} />;
}

/** A picture (the title bar's "back to stills"). */
function PictureIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.4" aria-hidden="true">
      <rect x="1.5" y="2.5" width="13" height="11" rx="1" />
      <circle cx="5.5" cy="6" r="1.3" />
      <path d="M2 12l4-4 3 3 2-2 3.5 3.5" />
    </svg>
  );
}

/** Date.now(), refreshed every `ms` (the picture's age). */
function useClock(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export const STILLS_SURFACE: CellControl = { id: 'stills', placement: 'surface', Component: StillsSurface };

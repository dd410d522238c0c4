import { lazy, Suspense, useState } from 'react';
import { Popover, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CellControl, CellControlProps } from '../../../shared/player-cell/index.ts';
import { PTZ_TYPE } from '../camera-type.ts';
import { ARROWS, DIRECTIONS, ZOOMS } from '../directions.ts';
import { useMovedBy } from '../hooks/useMovedBy.ts';
import { usePtzHold } from '../hooks/usePtzHold.ts';
import styles from '../ptz.module.css';
import { HoldButton } from './HoldButton.tsx';
import { useMessage } from '../../../shared/message.tsx';

// Loaded when the presets first open: its list (antd List, with Pagination) is not part of the live preview's first screen (issue 17 budget).
const PtzPresets = lazy(() => import('./PtzPresets.tsx').then((m) => ({ default: m.PtzPresets })));

/**
 * The PTZ pad over a PTZ cell's picture: eight directions and zoom, each acting while held; the
 * middle opens the presets; "moved by X" while someone steers the camera. Other cells show nothing.
 */
export function PtzControl({ source, getPopupContainer }: CellControlProps) {
  if (source.cameraType !== PTZ_TYPE) return null;
  return <PtzPad source={source} getPopupContainer={getPopupContainer} />;
}

function PtzPad({ source, getPopupContainer }: CellControlProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const target = { shipId: source.shipId, cameraId: source.cameraId };
  const hold = usePtzHold(target, (text) => message.error({ key: `ptz-${source.cameraId}`, content: text }));
  const movedBy = useMovedBy(source.cameraId);
  const [presetsOpen, setPresetsOpen] = useState(false);

  return (
    <div className={styles.wrap} data-testid="ptz-control">
      {movedBy ? (
        <div className={styles.movedBy} role="status" aria-live="polite" data-testid="ptz-moved-by">
          {t('ptz.movedBy', { name: movedBy })}
        </div>
      ) : null}
      <div className={styles.pad} role="group" aria-label={t('ptz.pad')}>
        {DIRECTIONS.map((d, i) =>
          d ? (
            <HoldButton key={d.key} className={styles.key} label={t(`ptz.control.${d.key}`)} speeds={d.speeds} press={hold.press} release={hold.release}>
              {ARROWS[d.key]}
            </HoldButton>
          ) : (
            <Popover
              key={`centre-${i}`}
              trigger="click"
              open={presetsOpen}
              onOpenChange={setPresetsOpen}
              title={t('ptz.presets.open')}
              content={
                presetsOpen ? (
                  <Suspense fallback={<Spin size="small" />}>
                    <PtzPresets target={target} getPopupContainer={getPopupContainer} />
                  </Suspense>
                ) : null
              }
              getPopupContainer={getPopupContainer}
              placement="topRight"
            >
              <button type="button" className={styles.centre} aria-label={t('ptz.presets.open')} title={t('ptz.presets.open')}>
                ★
              </button>
            </Popover>
          ),
        )}
      </div>
      <div className={styles.zooms}>
        {ZOOMS.map((z) => (
          <HoldButton key={z.key} className={styles.key} label={t(`ptz.control.${z.key}`)} speeds={z.speeds} press={hold.press} release={hold.release}>
            {ARROWS[z.key]}
          </HoldButton>
        ))}
      </div>
    </div>
  );
}

export const PTZ_CONTROL: CellControl = { id: 'ptz', placement: 'overlay', Component: PtzControl };

import { Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { PlayableSource } from '../../../shared/playable-source.ts';
import { useGotoPreset, usePtzPresets } from '../api/ptz.ts';
import { PTZ_TYPE } from '../camera-type.ts';
import { ARROWS, DIRECTIONS, ZOOMS } from '../directions.ts';
import { useMovedBy } from '../hooks/useMovedBy.ts';
import { usePtzHold } from '../hooks/usePtzHold.ts';
import { ptzErrorText } from '../ptz-error.ts';
import styles from '../ptz.module.css';
import { HoldButton } from './HoldButton.tsx';

/**
 * The phone's compact PTZ pad under a PTZ camera's picture: four directions and zoom (held), the
 * presets to go to (setting and deleting them is the desktop's), and who moves the camera.
 */
export function MobilePtzPad({ source }: { source: PlayableSource }) {
  if (source.cameraType !== PTZ_TYPE) return null;
  return <Pad source={source} />;
}

const FOUR = new Set(['up', 'down', 'left', 'right']);

function Pad({ source }: { source: PlayableSource }) {
  const { t } = useTranslation();
  const target = { shipId: source.shipId, cameraId: source.cameraId };
  const hold = usePtzHold(target, (text) => Toast.show({ icon: 'fail', content: text }));
  const movedBy = useMovedBy(source.cameraId);
  const presets = usePtzPresets(target, true);
  const go = useGotoPreset(target);
  const controls = [...DIRECTIONS.filter((d) => d !== undefined && FOUR.has(d.key)), ...ZOOMS].flatMap((d) => (d ? [d] : []));
  return (
    <div className={styles.mobilePad} role="group" aria-label={t('ptz.pad')} data-testid="ptz-mobile-pad">
      {controls.map((d) => (
        <HoldButton key={d.key} className={styles.mobileKey} label={t(`ptz.control.${d.key}`)} speeds={d.speeds} press={hold.press} release={hold.release}>
          {ARROWS[d.key]}
        </HoldButton>
      ))}
      {(presets.data ?? []).map((p) => (
        <button
          key={p.presetId}
          type="button"
          className={styles.mobileKey}
          onClick={() => go.mutate(p.presetId, { onError: (err) => Toast.show({ icon: 'fail', content: `${t('ptz.presets.gotoFailed')}: ${ptzErrorText(t, err)}` }) })}
        >
          {p.name}
        </button>
      ))}
      {movedBy ? (
        <div className={styles.mobileMovedBy} role="status" aria-live="polite">
          {t('ptz.movedBy', { name: movedBy })}
        </div>
      ) : null}
    </div>
  );
}

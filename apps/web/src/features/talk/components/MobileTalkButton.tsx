import { useEffect, type PointerEvent } from 'react';
import { Toast } from 'antd-mobile';
import { AudioOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../../shared/runtime-config.tsx';
import type { PlayableSource } from '../../../shared/playable-source.ts';
import { mediaSocketUrl, useNow, useShipConfig } from '../../../shared/player-cell/index.ts';
import { useTalk } from '../hooks/useTalk.ts';
import { remainingSeconds } from '../talk-machine.ts';
import { problemText } from '../talk-problem.ts';
import styles from './talk.module.css';

/**
 * The phone's talk button in the live view's bar, on ships whose config has talk on: hold to talk
 * (a short tap keeps talking until the next tap), a level meter while talking, the seconds left near
 * the maximum, and every refusal in its own words (a toast). The desktop's state machine and hook.
 */
export function MobileTalkButton({ source }: { source: PlayableSource }) {
  const config = useShipConfig(source.orgId, source.shipId);
  if (!config.data?.talk) return null;
  return <MobileTalk source={source} />;
}

function MobileTalk({ source }: { source: PlayableSource }) {
  const { t } = useTranslation();
  const { mediaPath } = useRuntimeConfig();
  const talk = useTalk(mediaSocketUrl(mediaPath, window.location), source.cameraId);
  const { state } = talk;
  const now = useNow(state.kind === 'talking');
  const left = remainingSeconds(state, now);

  useEffect(() => {
    if (state.kind !== 'failed') return;
    Toast.show({ icon: 'fail', content: problemText(t, state.problem) });
    talk.dismiss();
  }, [state, t, talk]);

  const down = (e: PointerEvent<HTMLButtonElement>) => {
    // The release is heard on the window: a finger sliding off the button still ends the talk.
    const up = (u: globalThis.PointerEvent) => {
      if (u.pointerId !== e.pointerId) return;
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      talk.release();
    };
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
    talk.press();
  };
  const active = state.kind === 'starting' || state.kind === 'talking';
  const label = state.kind === 'talking' ? t('talk.talking') : state.kind === 'starting' ? t('talk.starting') : t('talk.button');

  return (
    <span className={styles.mobileTalk} data-talk-state={state.kind}>
      {active && (
        <span className={styles.meter} role="meter" aria-label={t('talk.level')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(talk.level * 100)}>
          <span className={styles.level} style={{ width: `${Math.round(talk.level * 100)}%` }} />
        </span>
      )}
      {left !== undefined && (
        <span className={styles.remaining} role="timer">
          {t('talk.remaining', { seconds: left })}
        </span>
      )}
      <button
        type="button"
        className={styles.mobileButton}
        aria-label={label}
        aria-pressed={active}
        data-talking={state.kind === 'talking' || undefined}
        onPointerDown={down}
        // A long press would open the phone's context menu or select text.
        onContextMenu={(e) => e.preventDefault()}
      >
        <AudioOutline />
      </button>
    </span>
  );
}

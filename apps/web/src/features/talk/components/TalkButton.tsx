import { useEffect, type KeyboardEvent, type PointerEvent } from 'react';
import { AudioOutlined, LoadingOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../../shared/runtime-config.tsx';
import { type CellControl, type CellControlProps, mediaSocketUrl, useNow, useShipConfig } from '../../../shared/player-cell/index.ts';
import { useTalk } from '../hooks/useTalk.ts';
import { remainingSeconds } from '../talk-machine.ts';
import { problemText } from '../talk-problem.ts';
import styles from './talk.module.css';
import { useMessage } from '../../../shared/message.tsx';

/**
 * Talkback in a live cell's title bar, on ships whose config has talk on: hold to talk, or click
 * once to keep talking and again to stop. While talking, a level meter; near the maximum duration,
 * the seconds left; every refusal (occupied, with who holds it; the microphone refused, missing
 * or unsupported; the ship offline) in its own words.
 */
export function TalkButton(props: CellControlProps) {
  const config = useShipConfig(props.source.orgId, props.source.shipId);
  if (!config.data?.talk) return null;
  return <TalkControl {...props} />;
}

function TalkControl({ source, getPopupContainer }: CellControlProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const { mediaPath } = useRuntimeConfig();
  const talk = useTalk(mediaSocketUrl(mediaPath, window.location), source.cameraId);
  const { state } = talk;
  const now = useNow(state.kind === 'talking');
  const left = remainingSeconds(state, now);

  useEffect(() => {
    if (state.kind !== 'failed') return;
    message.error({ key: `talk-${source.cameraId}`, content: problemText(t, state.problem) });
    talk.dismiss();
  }, [state, message, t, source.cameraId, talk]);

  const down = (e: PointerEvent<HTMLElement>) => {
    if (e.button !== 0) return;
    // The release is heard on the window: the bar may redraw the button while it is held.
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
  const key = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    // From the keyboard a talk is toggled: a press and an immediate release.
    talk.press();
    talk.release();
  };
  const active = state.kind === 'starting' || state.kind === 'talking';
  const label = state.kind === 'talking' ? t('talk.talking') : state.kind === 'starting' ? t('talk.starting') : t('talk.button');

  return (
    <span className={styles.talk} data-talk-state={state.kind}>
      <Tooltip title={active ? t('talk.stop') : t('talk.hint')} getPopupContainer={getPopupContainer}>
        <Button
          size="small"
          type={active ? 'primary' : 'text'}
          danger={state.kind === 'talking'}
          aria-label={label}
          aria-pressed={active}
          // Not `loading`: a loading antd button takes no pointer events, and the held press must see its release.
          icon={state.kind === 'starting' ? <LoadingOutlined /> : <AudioOutlined />}
          onPointerDown={down}
          onKeyDown={key}
        />
      </Tooltip>
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
    </span>
  );
}

export const TALK_CONTROL: CellControl = { id: 'talk', placement: 'bar', Component: TalkButton };

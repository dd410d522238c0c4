import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { TalkConnection } from '../talk-connection.ts';
import { type TalkMode, type TalkState, LATCH_MS, isActive, talkReducer } from '../talk-machine.ts';
import { microphoneProblem, serverProblem } from '../talk-problem.ts';
import { VoiceCapture, voiceFormat } from '../voice-capture.ts';

export interface Talk {
  state: TalkState;
  /** The microphone's level (0–1) while talking. */
  level: number;
  /** Pointer down (or Enter/Space): starts a talk, or ends a toggled one. */
  press(): void;
  /** Pointer up: ends a held talk, or latches a short press into a toggled one. */
  release(): void;
  dismiss(): void;
}

/**
 * One cell's talkback: the microphone and a talk socket run while the state is active (starting or
 * talking) and stop when it is not — on release, second click, a refusal, the end from shore, the
 * socket's loss — and when the cell goes away (unmount).
 */
export function useTalk(url: string, cameraId: string): Talk {
  const [state, dispatch] = useReducer(talkReducer, { kind: 'idle' });
  const [level, setLevel] = useState(0);
  const pressedAt = useRef(0);
  const active = isActive(state);

  useEffect(() => {
    if (!active) return;
    const format = voiceFormat();
    if (!format) {
      dispatch({ type: 'problem', problem: { kind: 'unsupported' } });
      return;
    }
    let over = false;
    let capture: VoiceCapture | undefined;
    let connection: TalkConnection | undefined;
    const fail = (err: unknown) => {
      if (!over) dispatch({ type: 'problem', problem: microphoneProblem(err) });
    };
    VoiceCapture.open(format, (payload) => connection?.send(payload), fail)
      .then((c) => {
        if (over) return c.stop();
        capture = c;
        connection = new TalkConnection(url, cameraId, format, {
          started: (maxSeconds) => dispatch({ type: 'started', at: performance.now(), maxSeconds }),
          ended: (reason, message) =>
            dispatch(reason === 'stopped' ? { type: 'ended' } : { type: 'problem', problem: { kind: 'ended', reason, message } }),
          refused: (code, message, holder) => dispatch({ type: 'problem', problem: serverProblem(code, message, holder) }),
          lost: () => dispatch({ type: 'problem', problem: { kind: 'ended', reason: 'connectionLost', message: '' } }),
        });
      })
      .catch(fail);
    const meter = setInterval(() => setLevel(capture?.level() ?? 0), 100);
    return () => {
      over = true;
      clearInterval(meter);
      // What the encoder holds goes out before talk.stop.
      capture?.stop();
      connection?.stop();
      setLevel(0);
    };
  }, [active, url, cameraId]);

  const press = useCallback(() => {
    pressedAt.current = performance.now();
    dispatch({ type: 'press', mode: 'hold' as TalkMode });
  }, []);
  const release = useCallback(() => {
    if (performance.now() - pressedAt.current < LATCH_MS) dispatch({ type: 'latch' });
    else dispatch({ type: 'release' });
  }, []);
  const dismiss = useCallback(() => dispatch({ type: 'dismiss' }), []);
  return { state, level, press, release, dismiss };
}

/**
 * The one rule for a full uplink, shared by live video and ship-end playback: once the bytes queued
 * on the link pass the stream's bound, whole fragments are dropped until a keyframe finds the queue
 * back under half the bound. Shore thus always receives a decodable stream (never a fragment that
 * depends on one it did not get), and the queue drains before sending resumes.
 */
export interface KeyframeGateState {
  /** Fragments are being dropped until a keyframe finds the queue drained. */
  dropping: boolean;
  droppedFragments: number;
}

export type GateVerdict = 'send' | 'drop' | 'startDropping';

/** Decides one fragment's fate and updates the stream's state; 'startDropping' is the first drop of a run. */
export function passFragment(state: KeyframeGateState, keyframe: boolean, queuedBytes: number, limitBytes: number): GateVerdict {
  if (state.dropping) {
    if (!keyframe || queuedBytes > limitBytes / 2) {
      state.droppedFragments += 1;
      return 'drop';
    }
    state.dropping = false;
    return 'send';
  }
  if (queuedBytes > limitBytes) {
    state.dropping = true;
    state.droppedFragments += 1;
    return 'startDropping';
  }
  return 'send';
}

import type { PlayerCommand } from './types.ts';

/** What one tick tells a mode: the buffer, the clock, whether the playhead moved since the last tick. */
export interface ModeTick {
  ranges: Array<[number, number]>;
  now: number;
  progressed: boolean;
  /** video.play() was called for the current MediaSource. */
  mediaStarted: boolean;
}

/**
 * The part of a stream that differs between live and ship-end playback, driven by MsePlayer (the
 * socket, the MSE core, the state machine and the watchdogs): where the playhead goes, what a new
 * socket asks for, what the server's `ended` means. `live-controller.ts` and
 * `playback-controller.ts` are the two.
 */
export interface StreamMode {
  /** The command a new socket sends (a playback resumes from its last position). */
  commandToSend(): PlayerCommand;
  /** The socket opened and the command went: anything to send after it. */
  opened(): void;
  /** An init segment arrived: whether its media replaces what is buffered (a playback's seek). */
  takeJump(): boolean;
  /** The first fragment of a generation was placed at `at` seconds (with `jump` from takeJump). */
  placed(at: number, jump: boolean): void;
  /** A fragment placed at `mediaSec` (buffer time) left the ship's encoder at `wallMs` (its prft). */
  producedAt?(mediaSec: number, wallMs: number): void;
  /** After each append or remove. */
  buffered(sb: SourceBuffer, mediaStarted: boolean): void;
  /** The first media is buffered: move the playhead; whether to call video.play() now. */
  start(sb: SourceBuffer): boolean;
  /** Every tick while playing: catch-up, gaps, trimming; writes the latency it sees into stats. */
  tick(t: ModeTick): void;
  /** Frames show although currentTime stands still (counts as progress). */
  framesShowing(now: number): boolean;
  /** The operator paused it: no progress and no bytes are expected. */
  readonly userPaused: boolean;
  /** The server said the stream is done; true when the mode ends it itself (once the buffer played out). */
  serverEnded(): boolean;
  /** A fresh MediaSource (or none): forget what was measured of the old one. */
  reset(): void;
  /** The live latency target shown in stats; undefined for playback. */
  readonly latencyTargetMs: number | undefined;
}

import { useEffect, useState, useSyncExternalStore } from 'react';
import { SegmentPlayer, type SegmentPlayerSnapshot } from '../segment-player.ts';

const IDLE: SegmentPlayerSnapshot = { state: 'idle', time: undefined, speed: 1, lastSeekMs: undefined, error: undefined };
const noop = () => () => undefined;

/** The SegmentPlayer of a <video> element (made once the element exists) and its state. */
export function useSegmentPlayer(video: HTMLVideoElement | null): { player: SegmentPlayer | undefined; snapshot: SegmentPlayerSnapshot } {
  const [player, setPlayer] = useState<SegmentPlayer>();
  useEffect(() => {
    if (!video) return undefined;
    const p = new SegmentPlayer(video);
    setPlayer(p);
    return () => {
      p.destroy();
      setPlayer(undefined);
    };
  }, [video]);
  const snapshot = useSyncExternalStore(player?.subscribe ?? noop, player?.getSnapshot ?? (() => IDLE));
  return { player, snapshot };
}

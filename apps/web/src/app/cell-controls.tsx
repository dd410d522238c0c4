import { lazy, Suspense } from 'react';
import type { CellControl, CellControlProps } from '../shared/player-cell/index.ts';

/**
 * A control whose code is loaded when a cell first draws it: the live preview opens on an empty
 * grid, so the PTZ pad, talkback, snapshot and stills (and the antd parts only they use) are not part of
 * its first screen (issue 17 budget). Each feature's `cell-control.ts` is its lazily loaded face.
 */
function lazyControl(id: string, placement: CellControl['placement'], load: () => Promise<CellControl>): CellControl {
  const Loaded = lazy(() => load().then((control) => ({ default: control.Component })));
  function LazyControl(props: CellControlProps) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return { id, placement, Component: LazyControl };
}

/**
 * The controls features add to every live player cell, in the order they appear (PTZ and talk
 * join here, each from its own feature). The live feature draws them and knows none of them.
 */
export const CELL_CONTROLS: readonly CellControl[] = [
  lazyControl('snapshot', 'bar', () => import('../features/pictures/cell-control.ts').then((m) => m.SNAPSHOT_CONTROL)),
  lazyControl('ptz', 'overlay', () => import('../features/ptz/cell-control.ts').then((m) => m.PTZ_CONTROL)),
  lazyControl('talk', 'bar', () => import('../features/talk/cell-control.ts').then((m) => m.TALK_CONTROL)),
  // Stills mode: a cell whose ship's link policy says stills shows pictures instead of video.
  lazyControl('stills', 'surface', () => import('../features/stills/cell-control.ts').then((m) => m.STILLS_SURFACE)),
];

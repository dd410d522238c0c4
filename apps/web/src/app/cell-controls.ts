import { SNAPSHOT_CONTROL } from '../features/pictures/index.ts';
import { TALK_CONTROL } from '../features/talk/index.ts';
import { PTZ_CONTROL } from '../features/ptz/index.ts';
import type { CellControl } from '../shared/player-cell/index.ts';

/**
 * The controls features add to every live player cell, in the order they appear (PTZ and talk
 * join here, each from its own feature's index). The live feature draws them and knows none of them.
 */
export const CELL_CONTROLS: readonly CellControl[] = [SNAPSHOT_CONTROL, PTZ_CONTROL, TALK_CONTROL];

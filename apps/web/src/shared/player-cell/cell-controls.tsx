import { createContext, type ComponentType, type ReactNode, useContext } from 'react';
import type { PlayableSource } from '../playable-source.ts';

/** What a control in a player cell knows of its cell. */
export interface CellControlProps {
  /** The channel the cell plays. */
  source: PlayableSource;
  /** Where the control's popups (menus, tooltips) go: inside the cell, so they show in full screen too. */
  getPopupContainer(): HTMLElement;
}

/**
 * A control a feature adds to every live player cell — PTZ arrows, a talk button — without the
 * live feature knowing of it: the app shell lists the controls (CellControlsProvider), and each
 * cell draws them in its title bar or over its picture.
 */
export interface CellControl {
  id: string;
  /** 'bar': a button in the title bar, before the cell's own. 'overlay': over the picture (e.g. PTZ arrows). */
  placement: 'bar' | 'overlay';
  Component: ComponentType<CellControlProps>;
}

const CellControlsContext = createContext<readonly CellControl[]>([]);

export function CellControlsProvider({ controls, children }: { controls: readonly CellControl[]; children: ReactNode }) {
  return <CellControlsContext.Provider value={controls}>{children}</CellControlsContext.Provider>;
}

/** The controls every cell shows (none unless the app shell provides some). */
export function useCellControls(): readonly CellControl[] {
  return useContext(CellControlsContext);
}

import { createContext, type ComponentType, type ReactNode, useContext } from 'react';
import type { CellView } from '@ship-cctv/protocol';
import type { LinkPolicies } from '../cell-definition/link-policy-api.ts';
import type { PlayableSource } from '../playable-source.ts';

/** What a control in a player cell knows of its cell. */
export interface CellControlProps {
  /** The channel the cell plays. */
  source: PlayableSource;
  /** Where the control's popups (menus, tooltips) go: inside the cell, so they show in full screen too. */
  getPopupContainer(): HTMLElement;
  /** 'surface' only: how the cell is shown (undefined: outside a grid, no link policy applies). */
  view?: CellView | undefined;
  /** 'surface' only: the definition the cell asks for (undefined: the ship's default). */
  templateId?: number | undefined;
  /** 'surface' only: the organisation's link policies by link type (undefined while loading, null when they could not be loaded). */
  policies?: LinkPolicies['byLink'] | null | undefined;
  /** 'surface' only: why shore refused the cell's live video, if it did (e.g. 'budgetStills'). */
  refusal?: string | undefined;
  /** 'surface' only: whether this control shows the cell instead of live video (true: the cell stops its stream). */
  onCover?(covered: boolean): void;
  /** 'surface' only: a place in the title bar for the control's buttons (a portal target). */
  bar?: HTMLElement | null;
}

/**
 * A control a feature adds to every live player cell — PTZ arrows, a talk button — without the
 * live feature knowing of it: the app shell lists the controls (CellControlsProvider), and each
 * cell draws them in its title bar or over its picture.
 */
export interface CellControl {
  id: string;
  /**
   * 'bar': a button in the title bar, before the cell's own. 'overlay': over the picture (e.g. PTZ
   * arrows). 'surface': may show the cell instead of live video (stills): it says so through
   * `onCover`, and the cell starts no stream until every surface has said whether it covers it.
   */
  placement: 'bar' | 'overlay' | 'surface';
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

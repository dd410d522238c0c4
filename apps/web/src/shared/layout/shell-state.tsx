import { createContext, useContext, useMemo, useState, type ComponentType, type ReactNode } from 'react';

/** The statistics panel a sidebar page shows over its content while it is open (the shell's choice). */
export type StatisticsPanelComponent = ComponentType<{ onClose: () => void }>;

/** Spec §3 client state of the desktop shell: sidebar collapsed (default false), static info closed (default true). */
export interface ShellState {
  sidebarCollapsed: boolean;
  toggleSidebar: () => void;
  statisticsOpen: boolean;
  setStatisticsOpen: (open: boolean) => void;
  StatisticsPanel: StatisticsPanelComponent;
}

const ShellStateContext = createContext<ShellState | null>(null);

export function ShellStateProvider({ statisticsPanel, children }: { statisticsPanel: StatisticsPanelComponent; children: ReactNode }) {
  const [sidebarCollapsed, setSidebarCollapsed] = useState(false);
  const [statisticsOpen, setStatisticsOpen] = useState(false);
  const value = useMemo<ShellState>(
    () => ({ sidebarCollapsed, toggleSidebar: () => setSidebarCollapsed((c) => !c), statisticsOpen, setStatisticsOpen, StatisticsPanel: statisticsPanel }),
    [sidebarCollapsed, statisticsOpen, statisticsPanel],
  );
  return <ShellStateContext.Provider value={value}>{children}</ShellStateContext.Provider>;
}

export function useShellState(): ShellState {
  const state = useContext(ShellStateContext);
  if (!state) throw new Error('useShellState outside ShellStateProvider');
  return state;
}

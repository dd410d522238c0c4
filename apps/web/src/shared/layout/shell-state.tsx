import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

/** Spec §3 client state of the desktop shell: sidebar collapsed (default false), static info closed (default true). */
export interface ShellState {
  sidebarCollapsed: boolean;
  toggleSidebar: () => void;
  statisticsOpen: boolean;
  setStatisticsOpen: (open: boolean) => void;
}

const ShellStateContext = createContext<ShellState | null>(null);

export function ShellStateProvider({ children }: { children: ReactNode }) {
  const [sidebarCollapsed, setSidebarCollapsed] = useState(false);
  const [statisticsOpen, setStatisticsOpen] = useState(false);
  const value = useMemo<ShellState>(
    () => ({ sidebarCollapsed, toggleSidebar: () => setSidebarCollapsed((c) => !c), statisticsOpen, setStatisticsOpen }),
    [sidebarCollapsed, statisticsOpen],
  );
  return <ShellStateContext.Provider value={value}>{children}</ShellStateContext.Provider>;
}

export function useShellState(): ShellState {
  const state = useContext(ShellStateContext);
  if (!state) throw new Error('useShellState outside ShellStateProvider');
  return state;
}

import type { SignalColour } from '@ship-cctv/protocol';

/** CSS colour of each signal colour of spec §4 (desktop tree and mobile ship picker). */
export const SIGNAL_CSS: Record<SignalColour, string> = {
  green: '#389e0d',
  lightGreen: '#95de64',
  yellow: '#fadb14',
  orange: '#fa8c16',
  red: '#f5222d',
  white: '#ffffff',
};

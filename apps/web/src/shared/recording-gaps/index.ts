export { GapBand, type GapBandProps } from './GapBand.tsx';
export { GapLegend } from './GapLegend.tsx';
export { causesIn, gapBackground, gapColour, gapFractions } from './gap-style.ts';
export { recordingGapsEn, recordingGapsZhCN, type RecordingGapsTexts } from './locales.ts';

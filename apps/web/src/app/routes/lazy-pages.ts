import { lazy } from 'react';

/*
 * Each desktop screen is its own chunk (issue 17 item 4): the first screen downloads the live
 * preview and the parts of antd it draws, not the playback, pictures and carousel screens with
 * the date pickers, tables and cascaders only they use. The build's desktop budget
 * (build/desktop-budget.ts) measures the entry, App and the live preview's chunk.
 */
export const LivePreviewPage = lazy(() => import('./LivePreviewPage.tsx').then((m) => ({ default: m.LivePreviewPage })));
export const LoginPage = lazy(() => import('../../features/session/pages.ts').then((m) => ({ default: m.LoginPage })));
export const JumpPage = lazy(() => import('../../features/session/pages.ts').then((m) => ({ default: m.JumpPage })));
export const RepeatLoginPage = lazy(() => import('../../features/session/pages.ts').then((m) => ({ default: m.RepeatLoginPage })));
export const ShipPlaybackPage = lazy(() => import('../../features/playback/pages.ts').then((m) => ({ default: m.ShipPlaybackPage })));
export const ShorePlaybackPage = lazy(() => import('../../features/shore-playback/pages.ts').then((m) => ({ default: m.ShorePlaybackPage })));
export const ShipPhotoPage = lazy(() => import('../../features/pictures/pages.ts').then((m) => ({ default: m.ShipPhotoPage })));
export const ShorePhotoPage = lazy(() => import('../../features/pictures/pages.ts').then((m) => ({ default: m.ShorePhotoPage })));
export const CarouselPage = lazy(() => import('../../features/carousel/pages.ts').then((m) => ({ default: m.CarouselPage })));
export const EventsPage = lazy(() => import('../../features/events/pages.ts').then((m) => ({ default: m.EventsPage })));

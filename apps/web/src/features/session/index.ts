/** The public face of the session feature: other features, the app shell and the mobile screens import only from here. */
export * from './api/heartbeat.ts';
export * from './api/logon.ts';
export * from './components/GuardedRoute.tsx';
export * from './components/JumpPage.tsx';
export * from './components/LoginPage.tsx';
export * from './components/RepeatLoginPage.tsx';
export * from './components/RouteGuard.tsx';
export * from './hooks/useJumpToken.ts';
export * from './hooks/useLogout.ts';
export * from './hooks/useSessionEndedHandler.ts';
export * from './logon-error.ts';
export * from './route-guard.ts';
export * from '../../lib/session-store.ts';

export * from './constants.ts';
export * from './envelope.ts';
export * from './schemas/session.ts';
export * from './schemas/fleet.ts';
export * from './schemas/runtime-config.ts';
export * from './destinations.ts';
export * from './agent-link.ts';
export * from './schemas/status.ts';

export * from './constants.ts';
export * from './envelope.ts';
export * from './schemas/session.ts';
export * from './schemas/fleet.ts';
export * from './schemas/runtime-config.ts';

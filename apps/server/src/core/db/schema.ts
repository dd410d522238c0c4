/**
 * The database schema drizzle-kit reads (npm run db:generate): every table, in the file of the part
 * of the server that owns it (core/db/tables/). Migrations in core/db/migrations are generated
 * from it and never edited.
 */
export * from './tables/sessions.ts';
export * from './tables/orgs.ts';
export * from './tables/fleet.ts';
export * from './tables/settings.ts';
export * from './tables/ship-link.ts';
export * from './tables/recorder.ts';
export * from './tables/jobs.ts';
export * from './tables/pictures.ts';
export * from './tables/carousel.ts';
export * from './tables/budgets.ts';
export * from './tables/link-policies.ts';
export * from './tables/stills.ts';
export * from './tables/events.ts';

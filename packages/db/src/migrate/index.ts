// The public surface of the migration runner; packages/db's index re-exports it.

export * from './migration.errors.js';
export {
  type ApplyMigrationsOptions,
  applyMigrations,
  dropDatabase,
  ensureDatabase,
} from './migration-runner.js';

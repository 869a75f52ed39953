// `npm run db:migrate`: creates the database if needed and applies prisma/migrations.
import { applyMigrations, ensureDatabase } from './migrate/migration-runner.js';
import { databaseName } from './migrate/postgres-connect.js';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/touchbase';

function log(msg: string, data?: object): void {
  console.log(data === undefined ? msg : `${msg} ${JSON.stringify(data)}`);
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (await ensureDatabase(databaseUrl)) {
    log('Database created', { database: databaseName(databaseUrl) });
  }
  const { applied } = await applyMigrations({ databaseUrl, log });
  console.log(
    applied.length === 0
      ? 'No pending migrations.'
      : `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`,
  );
}

main().catch((error: unknown) => {
  // Our errors carry no credentials; print the message, not the URL.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});

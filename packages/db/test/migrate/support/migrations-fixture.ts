import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary migrations directory in Prisma's layout, for tests that edit migrations. */
export interface MigrationsFixture {
  dir: string;
  /** Writes `<dir>/<name>/migration.sql`, replacing any earlier content. */
  write(name: string, sql: string): Promise<void>;
  /** Deletes the migration's directory. */
  remove(name: string): Promise<void>;
  /** Deletes the whole fixture. */
  cleanup(): Promise<void>;
}

/** Creates a migrations directory holding `migrations` (name → SQL) and a migration_lock.toml. */
export async function createMigrationsFixture(
  migrations: Record<string, string>,
): Promise<MigrationsFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'touchbase-migrations-'));
  await writeFile(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  const fixture: MigrationsFixture = {
    dir,
    async write(name, sql) {
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, name, 'migration.sql'), sql);
    },
    remove: (name) => rm(join(dir, name), { recursive: true, force: true }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  for (const [name, sql] of Object.entries(migrations)) await fixture.write(name, sql);
  return fixture;
}

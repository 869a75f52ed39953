import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MigrationScriptMissingError } from './migration.errors.js';

/** One `prisma/migrations/<name>/migration.sql`, read from disk. */
export interface MigrationFile {
  /** The directory name, e.g. `20261121000000_init`; also `_prisma_migrations.migration_name`. */
  name: string;
  /** The raw bytes: the checksum is computed over them, not over a decoded string. */
  script: Buffer;
}

/**
 * Reads the migrations in Prisma's layout: every subdirectory of `migrationsDir` is one
 * migration holding a `migration.sql`; files beside them (migration_lock.toml) are not
 * migrations. Sorted by name, which starts with a UTC timestamp, as Prisma sorts them.
 */
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    // Code-unit order, like Prisma's byte-wise sort, and unlike localeCompare.
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const path = join(migrationsDir, name, 'migration.sql');
      try {
        return { name, script: await readFile(path) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          throw new MigrationScriptMissingError(name, path);
        throw error;
      }
    }),
  );
}

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The migration runner's and the schema drift tests only: each creates and drops its own
// database, so no global setup is needed.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['packages/db/test/migrate/**/*.test.ts', 'packages/db/test/schema-drift.int.test.ts'],
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

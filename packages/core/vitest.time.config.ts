import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the pure time and template modules only: no globalSetup, because
// they need neither PostgreSQL nor Redis.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/time/**/*.test.ts', 'test/templates/**/*.test.ts'],
  },
});

import { defineConfig } from 'vitest/config';

// The classifier's tests only: pure and offline, so no globalSetup (no database,
// no Redis). Run from the repository root:
//   npx vitest run --config packages/core/vitest.classify.config.ts
export default defineConfig({
  test: {
    include: ['packages/core/test/classify/**/*.test.ts'],
    testTimeout: 60_000,
  },
});

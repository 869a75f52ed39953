import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'cli/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // 2 cores: integration tests each own a database and a Redis prefix, so files
    // may run side by side, but not many at once.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/global-setup.ts'],
  },
});

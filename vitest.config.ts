// Test tiers: unit tests beside the code, integration tests against the real server on port 0,
// the hub's integration tests again on PostgreSQL (plus the multi-instance tests), and end-to-end
// tests that build fixture content and drive the built site (and Chromium).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        // The retrain test trains the shipped model in a child process on the second core, so
        // the other unit tests run on a loaded machine; a few of them read the 25 MB model.
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ['test/integration/hub-pg/**'],
          testTimeout: 30_000,
          hookTimeout: 240_000,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'integration-pg',
          include: ['test/integration/hub/**/*.test.ts', 'test/integration/hub-pg/**/*.test.ts'],
          env: { HUB_TEST_STORE: 'postgres' },
          testTimeout: 60_000,
          hookTimeout: 240_000,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
          globalSetup: ['test/support/global-setup.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The API/database suites run twice: on PGlite and on the PostgreSQL server (issue #2 §1).
const serverProject = (name: string, engine: 'pglite' | 'postgres') => ({
  test: {
    name,
    root: 'apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    env: { BILAN_TEST_DB: engine },
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one on CI's two, where the API layer took
    // 28 minutes. Its files spend much of their time waiting on PostgreSQL, another process, and each
    // has its own database: with two workers the layer took 11 minutes on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      { test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}'], passWithNoTests: true } },
      serverProject('server-pglite', 'pglite'),
      serverProject('server-postgres', 'postgres'),
    ],
  },
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// The built app on a fresh embedded database (PGlite in a new temporary directory) per run.
const port = Number(process.env.BILAN_E2E_PORT ?? 3199);
const baseURL = `http://localhost:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'bilan-e2e-'));

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // Generous: a test's time is mostly the machine's. On a 2-core CI machine three times slower than
  // usual (2026-11-27) the longest app specs took 1.5 min; a timeout here catches a hang, not a
  // slow machine.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  // Two workers for CI's two cores. The app's specs share one person (support.ts) and one
  // worker, a file after the other. The accessibility spec (its own person per test; most of its
  // time is axe in the browser) runs beside them, and on both workers once they are done.
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'app', testIgnore: /accessibility\.spec\.ts$/, workers: 1 },
    { name: 'accessibility', testMatch: /accessibility\.spec\.ts$/, fullyParallel: true },
  ],
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    // Debian's chromium; Playwright never downloads a browser here.
    launchOptions: {
      executablePath: process.env.BILAN_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'npm run serve',
    cwd: '..',
    url: `${baseURL}/api/meta/version`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      BILAN_PUBLIC_URL: baseURL,
      BILAN_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The person of e2e/tests/identity-logs.spec.ts becomes platform support at sign-in (never in production).
      BILAN_DEV_SUPERADMINS: 'support.e2e@example.ch',
    },
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // Node tests of the Next.js example's modules import the library by its package name: run them on the sources,
  // as the rest of the suite does (the browser test builds the package and uses it as the app does).
  resolve: {
    alias: [
      { find: /^ai-advisors$/, replacement: source('./src/index.ts') },
      { find: /^ai-advisors\/advisors$/, replacement: source('./advisors/index.ts') },
      { find: /^ai-advisors\/(.+)$/, replacement: source('./src/$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Says once which services this machine lacks, so the suites that need them show as skipped without a warning each.
    globalSetup: ['test/helpers/report-services.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CI also writes a machine-readable report, from which .ci/run prints its closing summary line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});

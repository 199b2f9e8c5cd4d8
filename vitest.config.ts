import os from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/setup/vitest.setup.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    environment: "node",
    pool: "forks",
    // One test file per core. Vitest's own default is one fewer, which is a single worker on CI's two cores; the
    // integration files spend much of their time waiting on servers, child processes and the database, so two at once
    // on two cores take about two thirds of the time (tests/integration/accounts: 44 s -> 29 s).
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

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
    // Two test files at a time at least. Vitest's default, one fewer than the cores, is one on CI's two cores, so the
    // suite ran file after file while most files wait on child processes, servers, sockets and PostgreSQL; six of the
    // slowest files took 285 s one at a time and 168 s two at a time on this two-core machine. Each file has its own
    // database copy, mail folder and PostgreSQL database, and its servers on free ports; a build is made under a lock.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

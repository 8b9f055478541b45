import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "@": fileURLToPath(new URL("./", import.meta.url)),
  // The `server-only` marker of lib/*/server modules is a no-op outside Next (as tsconfig.json maps it for tsx).
  "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
};

// Two tiers: `unit` (no database) and `db` (real Postgres: tests/db-global-setup.ts builds a migrated
// template once, tests/db.ts clones it per file), each listing the folders that hold its tests
// (tests/repo-consistency.test.ts fails on a listed folder without tests or a test outside them).
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["{lib,app,prisma,tests}/**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "node_modules/**"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Vitest's default on 2 cores is one file at a time, which left a core idle: two files side
          // by side took the tier from about 470 s to 320 s on a 2-core machine.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          include: ["{lib,scripts}/**/*.db.test.ts"],
          environment: "node",
          globalSetup: ["./tests/db-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // DB tests share one Postgres server; 2 cores — keep file parallelism modest.
          maxWorkers: 2,
        },
      },
    ],
  },
});

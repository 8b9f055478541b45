import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * Browser tier. Starts the studio the way a user does on a fresh machine (`scripts/start.ts`:
 * embedded PostgreSQL in a throwaway data dir, sample seeding, build when needed) and drives it in
 * Debian's Chromium. Every spec fails on any request that leaves localhost (e2e/fixtures.ts).
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE = `http://127.0.0.1:${PORT}`;
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".data-e2e";
/** The scripted OpenAI-compatible server the studio's worker uses in browser tests (test-only). */
const FAKE_LLM_PORT = Number(process.env.E2E_LLM_PORT ?? PORT + 1);
/**
 * The embedded PostgreSQL of the browser tier. Derived from the data directory's absolute path so
 * two checkouts on one machine do not collide; e2e/global-teardown.ts stops it after the run.
 */
export const E2E_PG_PORT =
  process.env.E2E_PG_PORT ??
  String(
    20_000 + (createHash("sha256").update(path.resolve(E2E_DATA_DIR)).digest().readUInt16BE(0) % 10_000),
  );
/** The first-start admin of the browser tier (created by scripts/start.ts from these variables). */
export const E2E_ADMIN = { email: "admin@e2e.local", password: "e2e-admin-password" };
/**
 * Debian's Chromium from apt; Playwright's own browser download is never used (offline). The old
 * headless shell (package chromium-headless-shell, what Playwright itself runs headless) before the
 * full browser: the whole browser tier took 338 s of Chromium CPU under the full browser and 188 s
 * under the shell, on a 2-core machine where that CPU is the tests' own time.
 */
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => existsSync(p)) ??
  "/usr/bin/chromium";

export default defineConfig({
  testDir: "./e2e",
  globalTeardown: "./e2e/global-teardown.ts",
  outputDir: "./test-results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1, // 2-core machine: one browser at a time
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: "reports/playwright.json" }]],
  use: {
    baseURL: BASE,
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        // Chromium still resolves Google hosts with the flags above; this makes every name but
        // localhost fail inside Chromium so no DNS query leaves the machine. 127.0.0.2 is the
        // login-required studio of e2e/auth.spec.ts (a non-loopback-only HOST).
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE 127.0.0.2",
      ],
    },
    screenshot: "only-on-failure",
    // Off by default: a CI failure leaves only its printed output, so a trace there is never read.
    // `npx playwright test --trace on` records one when debugging locally.
    trace: "off",
  },
  webServer: [
    {
      command: `node --import tsx tests/fake-openai/serve.ts ${FAKE_LLM_PORT}`,
      port: FAKE_LLM_PORT,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: "node --import tsx scripts/start.ts",
      url: `${BASE}/api/health`,
      reuseExistingServer: false,
      timeout: 300_000, // includes the first build on a fresh clone
      stdout: "pipe",
      stderr: "pipe",
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        HOST: "127.0.0.1",
        PORT: String(PORT),
        ENVSTUDIO_DATA_DIR: E2E_DATA_DIR,
        ENVSTUDIO_PG_PORT: E2E_PG_PORT,
        ENVSTUDIO_ADMIN_EMAIL: E2E_ADMIN.email,
        ENVSTUDIO_ADMIN_PASSWORD: E2E_ADMIN.password,
        DATABASE_URL: "",
        OPENAI_BASE_URL: `http://127.0.0.1:${FAKE_LLM_PORT}/v1`,
        OPENAI_API_KEY: "e2e",
      },
    },
  ],
});

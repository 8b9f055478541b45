/**
 * lib/env.ts: numbers reject NaN and out-of-range values naming the variable; and every variable
 * the app reads is declared there and documented in .env.example (a scan of the source tree).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvSchema, parseEnv, readEnv } from "./env";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("readEnv / parseEnv", () => {
  it("applies defaults for unset and blank values", () => {
    expect(readEnv("PG_POOL_MAX", {})).toBe(10);
    expect(readEnv("PG_POOL_MAX", { PG_POOL_MAX: "" })).toBe(10);
    expect(readEnv("ENVSTUDIO_PG_FALLBACK_ROOT", {})).toBe("/var/lib/envstudio");
    expect(readEnv("ENVSTUDIO_DATA_DIR", {})).toBe(".data");
    expect(readEnv("ENVSTUDIO_IMPORT_MAX_BYTES", { ENVSTUDIO_IMPORT_MAX_BYTES: " " })).toBeUndefined();
    expect(readEnv("JOBS_SUPERVISE_SECONDS", { JOBS_SUPERVISE_SECONDS: "3" })).toBe(3);
  });

  it.each([
    ["PG_POOL_MAX", "ten", /^Invalid configuration: PG_POOL_MAX: must be a number \(got "ten"\)$/],
    ["PIPELINE_JOB_CONCURRENCY", "NaN", /^Invalid configuration: PIPELINE_JOB_CONCURRENCY: must be a number/],
    [
      "JOBS_SUPERVISE_SECONDS",
      "-5",
      /^Invalid configuration: JOBS_SUPERVISE_SECONDS: must be at least 1 \(got -5\)$/,
    ],
    [
      "ENVSTUDIO_IMPORT_MAX_BYTES",
      "1.5",
      /^Invalid configuration: ENVSTUDIO_IMPORT_MAX_BYTES: must be a whole number \(got 1.5\)$/,
    ],
    [
      "ENVSTUDIO_SERVE_IDLE_MS",
      "10",
      /^Invalid configuration: ENVSTUDIO_SERVE_IDLE_MS: must be at least 1000 \(got 10\)$/,
    ],
    ["ENVSTUDIO_SERVE_DRAIN_MS", "soon", /^Invalid configuration: ENVSTUDIO_SERVE_DRAIN_MS: /],
    ["ENVSTUDIO_PG_PORT", "70000", /^Invalid configuration: ENVSTUDIO_PG_PORT: /],
  ] as const)("%s=%j is refused with a message naming it", (name, value, message) => {
    expect(() => readEnv(name, { [name]: value })).toThrow(message);
  });

  it("parseEnv lists every bad variable, one line each", () => {
    expect(() => parseEnv({ PG_POOL_MAX: "x", ENVSTUDIO_SANDBOX_CALLS_PER_USER: "0" })).toThrow(
      /^Invalid configuration:\n {2}PG_POOL_MAX: must be a number \(got "x"\)\n {2}ENVSTUDIO_SANDBOX_CALLS_PER_USER: must be at least 1 \(got 0\)$/,
    );
  });
});

/**
 * Scanned: lib, app, components, scripts, prisma and the root config files. Not scanned: tests
 * (*.test.ts, tests/, e2e/) and bench/, whose knobs (TEST_DATABASE_URL, E2E_*, BENCH_*) belong to
 * the harness; Prisma's generated client; the sandbox host and harness (lib/sandbox/host,
 * lib/sandbox/python), which run in the jailed child and get their settings from the parent.
 */
const SCANNED = ["lib", "app", "components", "scripts", "prisma"];
const SKIPPED_DIRS = new Set(["node_modules", "generated", "host", "python", "fixtures"]);
const ROOT_FILES = ["proxy.ts", "next.config.ts", "prisma.config.ts"];
/** Read by Node, CI, the OS or a library, before or without the app's own configuration. */
const STANDARD = new Set([
  "NODE_ENV",
  "CI",
  "USER",
  "HOME",
  "PATH",
  "PRISMA_SCHEMA_ENGINE_BINARY",
  "CHECKPOINT_DISABLE",
]);
/** prisma.config.ts is loaded by the Prisma CLI, outside the app: it reads DATABASE_URL directly. */
const DIRECT_READ_ALLOWED = new Set(["prisma.config.ts:DATABASE_URL"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return SKIPPED_DIRS.has(name) ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function envReads(): { file: string; name: string }[] {
  const files = [
    ...SCANNED.flatMap((d) => sourceFiles(path.join(ROOT, d))),
    ...ROOT_FILES.map((f) => path.join(ROOT, f)),
  ];
  return files.flatMap((full) => {
    const file = path.relative(ROOT, full);
    const text = readFileSync(full, "utf8");
    const reads = [
      ...text.matchAll(
        /process\.env\??(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]\s*\])/g,
      ),
    ];
    return reads.map((m) => ({ file, name: (m[1] ?? m[2])! }));
  });
}

describe("every variable the app reads", () => {
  const declared = new Set(Object.keys(EnvSchema.shape));
  const example = readFileSync(path.join(ROOT, ".env.example"), "utf8");
  const documented = (name: string) => new RegExp(`^#? ?${name}=`, "m").test(example);

  it("is read through lib/env.ts, not process.env.NAME (standard variables aside)", () => {
    const reads = envReads();
    expect(reads.length).toBeGreaterThan(0); // the scan sees lib/env.ts's own source, at least
    const direct = reads.filter(
      (r) =>
        r.file !== path.join("lib", "env.ts") &&
        !STANDARD.has(r.name) &&
        !DIRECT_READ_ALLOWED.has(`${r.file}:${r.name}`),
    );
    expect(
      direct.map((r) => `${r.file}: process.env.${r.name} (use readEnv("${r.name}") from lib/env.ts)`),
    ).toEqual([]);
    const undeclared = reads.filter((r) => !STANDARD.has(r.name) && !declared.has(r.name));
    expect(undeclared.map((r) => `${r.file}: ${r.name} is not declared in lib/env.ts`)).toEqual([]);
  });

  it("is declared in lib/env.ts and documented in .env.example", () => {
    const missing = [...declared].filter((name) => !STANDARD.has(name) && !documented(name));
    expect(missing.map((name) => `${name} is missing from .env.example`)).toEqual([]);
  });

  it("the scan catches a direct read (control)", () => {
    expect(
      [
        ..."const x = process.env.SOME_VAR; y = process.env['OTHER'];".matchAll(
          /process\.env\??(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]\s*\])/g,
        ),
      ].map((m) => m[1] ?? m[2]),
    ).toEqual(["SOME_VAR", "OTHER"]);
  });
});

/**
 * Environment variables. Every variable the app reads is declared here and documented in
 * .env.example (lib/env.test.ts checks both); code reads one with `readEnv("NAME")` (or all with
 * `parseEnv()` at startup), never from `process.env` directly. Bad values fail fast with a message naming the
 * variable. Not here: the `SANDBOX_*` limits (parsed by lib/sandbox/options.ts) and the `LLM_*`
 * settings (lib/llm/llm-config.ts), each parsed as a group by their domain, and variables that
 * only tests, benchmarks or libraries read.
 */
import { z } from "zod";
import { EmailSchema } from "./auth/auth.schema";
import { parseIpRanges } from "./auth/ip-ranges";
import { formatZodIssues } from "./core/zod-issues";

/** An empty value (`NAME=` in a .env file) means unset, so the default applies. */
const blankAsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

type NumberRule = { integer?: boolean; min?: number };

/** A number variable, unset when blank: rejects NaN, fractions (by default) and values below `min`. */
const optionalNumber = ({ integer = true, min = 0 }: NumberRule = {}) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "") return undefined;
      const n = Number(raw);
      const problem = !Number.isFinite(n)
        ? `must be a number (got ${JSON.stringify(raw)})`
        : integer && !Number.isInteger(n)
          ? `must be a whole number (got ${raw})`
          : n < min
            ? `must be at least ${min} (got ${raw})`
            : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      return n;
    });
const number = (fallback: number, rule?: NumberRule) => optionalNumber(rule).transform((n) => n ?? fallback);

const port = z.coerce.number().int().min(1).max(65535);
const flag = z.preprocess(blankAsUnset, z.string().optional());

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: z.string().trim().optional(),
  ENVSTUDIO_DATA_DIR: z.string().default(".data"),
  ENVSTUDIO_PG_PORT: z.preprocess(blankAsUnset, port.default(5433)),
  // Embedded PostgreSQL when started as root: the OS user it runs as, and where its cluster lives.
  ENVSTUDIO_PG_USER: z.preprocess(blankAsUnset, z.string().optional()),
  ENVSTUDIO_PG_FALLBACK_ROOT: z.preprocess(blankAsUnset, z.string().default("/var/lib/envstudio")),
  PG_POOL_MAX: number(10, { min: 1 }),
  /** The most rollouts per scenario per model one run may ask for (`envstudio rollouts --k`, the dataset page). */
  ROLLOUT_MAX_K: number(32, { min: 1 }),
  // Any value: log the embedded schema engine's messages (migrations) to stderr.
  DEBUG_SCHEMA_ENGINE: flag,
  JOBS_SUPERVISE_SECONDS: number(10, { min: 1 }),
  PIPELINE_JOB_CONCURRENCY: number(16, { min: 1 }),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  PORT: port.default(3000),
  ENVSTUDIO_SEED_SAMPLES: z.enum(["0", "1"]).default("1"),
  ENVSTUDIO_START_WORKER: z.enum(["0", "1"]).optional(),
  // 1: the offline demo (`npm start -- --demo`): canned replies from demo/ instead of an LLM endpoint.
  ENVSTUDIO_DEMO: z.enum(["0", "1"]).optional(),
  OPENAI_BASE_URL: z.preprocess(blankAsUnset, z.string().url().optional()),
  OPENAI_API_KEY: z.string().optional(),
  ENVSTUDIO_ADMIN_EMAIL: EmailSchema.optional(),
  ENVSTUDIO_ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  ENVSTUDIO_REQUIRE_LOGIN: z.enum(["0", "1"]).optional(),
  // `envstudio serve` (lib/envserver): token (optional on a loopback bind), limits, idle reaping.
  ENVSTUDIO_SERVE_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
  ENVSTUDIO_SERVE_MAX_SESSIONS: number(64, { min: 1 }),
  ENVSTUDIO_SERVE_MAX_STEPS: number(40, { min: 1 }),
  ENVSTUDIO_SERVE_IDLE_MS: number(300_000, { min: 1000 }),
  // On SIGTERM/SIGINT: how long calls in flight may take to answer before the server closes anyway.
  ENVSTUDIO_SERVE_DRAIN_MS: number(30_000, { min: 0 }),
  // 1: record every episode's calls in the database, so another replica can take it over.
  ENVSTUDIO_SERVE_JOURNAL: z.enum(["0", "1"]).default("0"),
  // How long the journal keeps an episode after its last write (ms); never less than twice IDLE_MS.
  ENVSTUDIO_SERVE_JOURNAL_RETENTION_MS: number(86_400_000, { min: 60_000 }),
  // "shared": sessions of a source share interpreters (fast); "episode": each episode gets its own.
  ENVSTUDIO_SERVE_ISOLATION: z.enum(["shared", "episode"]).default("shared"),
  // Comma-separated addresses users reach the studio at (lib/auth/request-guard.ts).
  ENVSTUDIO_PUBLIC_URL: z
    .string()
    .optional()
    .refine(
      (v) => !v || v.split(",").every((u) => !u.trim() || URL.canParse(u.trim())),
      "a comma-separated list of URLs like https://studio.example.org",
    ),
  // Reverse proxies whose X-Forwarded-For / -Proto / -Host are believed (lib/auth/client-address.ts).
  ENVSTUDIO_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const parsed = parseIpRanges(raw ?? "");
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }),
  ENVSTUDIO_IMPORT_MAX_BYTES: optionalNumber({ min: 1 }),
  ENVSTUDIO_SANDBOX_CALLS_PER_USER: optionalNumber({ min: 1 }),
});

export type Env = z.infer<typeof EnvSchema>;
export type EnvName = keyof Env;

type Source = Record<string, string | undefined>;

/** Every variable at once (startup): all bad values in one message, one line each. */
export function parseEnv(source: Source = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid configuration:\n  ${formatZodIssues(parsed.error, { separator: "\n  " })}`);
  }
  return parsed.data;
}

/**
 * One variable, parsed now (tests and the CLI change process.env between calls, so nothing is
 * cached). Throws `Invalid configuration: NAME: <rule> (got …)` for a bad value.
 */
export function readEnv<K extends EnvName>(name: K, source: Source = process.env): Env[K] {
  const parsed = EnvSchema.shape[name].safeParse(source[name]);
  if (!parsed.success)
    throw new Error(
      `Invalid configuration: ${name}: ${formatZodIssues(parsed.error, { max: 1, withPath: false })}`,
    );
  // The schema of key K parses to Env[K]; TypeScript cannot follow that through the union of shapes.
  return parsed.data as Env[K];
}

/** Loopback hosts: the studio may skip login only when it listens on one of these. */
export const isLoopbackHost = (host: string) => ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host);

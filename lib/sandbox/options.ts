/**
 * Sandbox limits and pool settings: defaults, overridable by `SANDBOX_*` env vars and then by
 * explicit options. The defaults and what each limit means: docs/sandbox.md.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { formatZodIssues } from "../core/zod-issues";
import { userCacheDir } from "./snapshot-trust";

export const SandboxOptionsSchema = z.object({
  /** "pyodide" (default, works anywhere) or "bwrap" (python3 in bubblewrap; needs user namespaces). */
  backend: z.enum(["pyodide", "bwrap"]),
  loadTimeoutMs: z.number().int().positive(),
  stepTimeoutMs: z.number().int().positive(),
  checkTimeoutMs: z.number().int().positive(),
  /** state/diff/analyze/tools calls. */
  queryTimeoutMs: z.number().int().positive(),
  /** After a deadline: how long interrupts may take before the worker/process is killed. */
  graceMs: z.number().int().positive(),
  /** How long `load` may wait for a free worker before SANDBOX_UNAVAILABLE (retryable). */
  leaseTimeoutMs: z.number().int().positive(),
  /** Wasm memory cap per Pyodide worker; address-space limit per python3 process. */
  // wasm32 addresses at most 4 GiB: a larger cap would make the host fail to compile the module.
  memoryMiB: z.number().int().min(64).max(4096),
  maxOutputBytes: z.number().int().positive(),
  maxLogBytes: z.number().int().positive(),
  /** Workers that may run episodes at once; plus `spareWorkers` kept booted and idle. */
  poolSize: z.number().int().positive(),
  spareWorkers: z.number().int().min(0),
  maxEpisodesPerWorker: z.number().int().positive(),
  /** 0: every episode has a worker of its own. N > 0: episodes of the same source share up to N
   * workers, each hosting several side by side (shared-workers.ts; `envstudio serve`). */
  workersPerSource: z.number().int().min(0),
  /** `runChecks` calls (pure functions over given states) a worker may serve before recycling. */
  maxCheckRunsPerWorker: z.number().int().positive(),
  /** Where the Pyodide memory snapshot is cached (keyed by Pyodide version). */
  cacheDir: z.string().min(1),
  useSnapshot: z.boolean(),
  /** Run the Pyodide sandbox host inside bubblewrap too (no network, read-only binds): "auto"
   * does so when bubblewrap works here and node lives under /usr. */
  hostInBwrap: z.enum(["auto", "on", "off"]),
  /** python3 for the bwrap backend; must live under /usr, the only tree bound into the jail. */
  python: z.string().min(1),
  /** Node binary for the Pyodide host; default: one whose permission model denies network
   * (this process's if >= 25, else the npm-installed node-linux-* package). */
  hostNode: z.string().min(1).optional(),
});
export type SandboxOptions = z.infer<typeof SandboxOptionsSchema>;

/** `env`: only ENVSTUDIO_DATA_DIR, where the snapshot cache goes (the user's own cache folder when unset). */
export function defaultOptions(env: Record<string, string | undefined> = process.env): SandboxOptions {
  const dataDir = env.ENVSTUDIO_DATA_DIR;
  return {
    backend: "pyodide",
    loadTimeoutMs: 5_000,
    stepTimeoutMs: 2_000,
    checkTimeoutMs: 5_000,
    queryTimeoutMs: 5_000,
    graceMs: 300,
    leaseTimeoutMs: 60_000,
    memoryMiB: 512,
    maxOutputBytes: 4 * 1024 * 1024,
    maxLogBytes: 64 * 1024,
    poolSize: Math.max(2, availableParallelism()),
    spareWorkers: 1,
    maxEpisodesPerWorker: 50,
    maxCheckRunsPerWorker: 1000,
    workersPerSource: 0,
    // Never a shared temp folder: the snapshot there is an interpreter image (snapshot-trust.ts).
    cacheDir: dataDir ? join(dataDir, "sandbox") : userCacheDir(env),
    useSnapshot: true,
    hostInBwrap: "auto",
    python: "/usr/bin/python3",
  };
}

const int = z.coerce.number().int();
const ENV_MAP = {
  SANDBOX_BACKEND: ["backend", z.enum(["pyodide", "bwrap"])],
  SANDBOX_LOAD_TIMEOUT_MS: ["loadTimeoutMs", int],
  SANDBOX_STEP_TIMEOUT_MS: ["stepTimeoutMs", int],
  SANDBOX_CHECK_TIMEOUT_MS: ["checkTimeoutMs", int],
  SANDBOX_QUERY_TIMEOUT_MS: ["queryTimeoutMs", int],
  SANDBOX_GRACE_MS: ["graceMs", int],
  SANDBOX_LEASE_TIMEOUT_MS: ["leaseTimeoutMs", int],
  SANDBOX_MEMORY_MB: ["memoryMiB", int],
  SANDBOX_MAX_OUTPUT_BYTES: ["maxOutputBytes", int],
  SANDBOX_MAX_LOG_BYTES: ["maxLogBytes", int],
  SANDBOX_POOL_SIZE: ["poolSize", int],
  SANDBOX_SPARE_WORKERS: ["spareWorkers", int],
  SANDBOX_MAX_EPISODES_PER_WORKER: ["maxEpisodesPerWorker", int],
  SANDBOX_MAX_CHECK_RUNS_PER_WORKER: ["maxCheckRunsPerWorker", int],
  SANDBOX_WORKERS_PER_SOURCE: ["workersPerSource", int],
  SANDBOX_CACHE_DIR: ["cacheDir", z.string()],
  SANDBOX_SNAPSHOT: [
    "useSnapshot",
    z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true"),
  ],
  SANDBOX_PYTHON: ["python", z.string()],
  SANDBOX_HOST_BWRAP: ["hostInBwrap", z.enum(["auto", "on", "off"])],
  SANDBOX_NODE: ["hostNode", z.string()],
} as const satisfies Record<string, readonly [keyof SandboxOptions, z.ZodType]>;

export const SANDBOX_ENV_VARS = Object.keys(ENV_MAP);

/** Options from `SANDBOX_*` env vars; a malformed value is a startup error, not a silent default. */
export function optionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): Partial<SandboxOptions> {
  const out: Partial<Record<keyof SandboxOptions, unknown>> = {};
  for (const [name, [key, schema]] of Object.entries(ENV_MAP)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `invalid ${name}=${JSON.stringify(raw)}: ${formatZodIssues(parsed.error, { max: 1, withPath: false })}`,
      );
    out[key] = parsed.data;
  }
  // each value was parsed by the schema paired with its key in ENV_MAP
  return out as Partial<SandboxOptions>;
}

export function resolveOptions(
  overrides: Partial<SandboxOptions> = {},
  env: Record<string, string | undefined> = process.env,
): SandboxOptions {
  const merged = { ...defaultOptions(env), ...optionsFromEnv(env), ...stripUndefined(overrides) };
  const parsed = SandboxOptionsSchema.safeParse(merged);
  if (!parsed.success)
    throw new Error(`invalid sandbox options: ${formatZodIssues(parsed.error, { root: "options" })}`);
  return parsed.data;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Wires catalog + sandbox + sessions + HTTP server, with the idle reaper; returns a handle to stop it. */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import type { AddressInfo } from "node:net";
import { EnvSchema } from "../env";
import type { SandboxRunner } from "../sandbox";
import { accessPolicy } from "./auth";
import type { Catalog } from "./catalog";
import type { EpisodeJournal } from "./episode-journal";
import { createEnvServer } from "./http-server";
import { createLifecycle } from "./lifecycle";
import { createSessions } from "./sessions";
import { journalRetentionMs, startJournalPruning } from "./prune-episode-journal";
import { formatZodIssues } from "../core/zod-issues";

export type ServeOptions = {
  port: number;
  host: string;
  /** Required of every client when set; when unset, none on a loopback bind, else a generated one. */
  token?: string;
  maxSessions: number;
  /** The sandbox runner's pool size: live sessions beyond it are refused at reset. */
  sandboxWorkers: number;
  maxSteps: number;
  idleMs: number;
  /** On SIGTERM: how long the calls in flight may take before the server closes anyway. */
  drainMs?: number;
  /** Clock for idle reaping (tests). */
  now?: () => number;
  /** Records episodes so that another replica can take them over (episode-journal.ts). */
  journal?: EpisodeJournal;
  /** With a journal: episodes not written for this long are deleted (prune-episode-journal.ts). */
  journalRetentionMs?: number;
};

/** ENVSTUDIO_SERVE_JOURNAL_RETENTION_MS's default (lib/env.ts): a day. */
const DEFAULT_JOURNAL_RETENTION_MS = 86_400_000;

const ServeEnvSchema = EnvSchema.pick({
  ENVSTUDIO_SERVE_TOKEN: true,
  ENVSTUDIO_SERVE_MAX_SESSIONS: true,
  ENVSTUDIO_SERVE_MAX_STEPS: true,
  ENVSTUDIO_SERVE_IDLE_MS: true,
  ENVSTUDIO_SERVE_DRAIN_MS: true,
  ENVSTUDIO_SERVE_JOURNAL_RETENTION_MS: true,
});
const IsolationEnvSchema = EnvSchema.pick({ ENVSTUDIO_SERVE_ISOLATION: true });

/** The ENVSTUDIO_SERVE_* variables (lib/env.ts); a malformed value is an error naming it. */
export function serveOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): Pick<ServeOptions, "token" | "maxSessions" | "maxSteps" | "idleMs" | "drainMs" | "journalRetentionMs"> {
  const parsed = ServeEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(
      `Invalid configuration:\n  ${formatZodIssues(parsed.error, { root: "config", separator: "\n  " })}`,
    );
  const v = parsed.data;
  return {
    token: v.ENVSTUDIO_SERVE_TOKEN,
    maxSessions: v.ENVSTUDIO_SERVE_MAX_SESSIONS,
    maxSteps: v.ENVSTUDIO_SERVE_MAX_STEPS,
    idleMs: v.ENVSTUDIO_SERVE_IDLE_MS,
    drainMs: v.ENVSTUDIO_SERVE_DRAIN_MS,
    journalRetentionMs: v.ENVSTUDIO_SERVE_JOURNAL_RETENTION_MS,
  };
}

/**
 * Sandbox workers for `envstudio serve`: one per live session, up to ENVSTUDIO_SERVE_MAX_SESSIONS,
 * so sessions are never refused or kept waiting for a worker below that limit. The pool boots
 * workers only as sessions need them, so memory follows the load (docs/benchmarks.md: ~90 MiB per
 * additional Pyodide worker, ~8 MiB per python3 process). SANDBOX_POOL_SIZE caps it.
 */
export function servePoolSize(
  maxSessions: number,
  env: Record<string, string | undefined> = process.env,
): number {
  const raw = env.SANDBOX_POOL_SIZE;
  if (raw === undefined || raw === "") return maxSessions;
  const cap = Number(raw);
  if (!Number.isInteger(cap) || cap <= 0)
    throw new Error(
      `Invalid configuration:\n  SANDBOX_POOL_SIZE: expected a positive integer, got ${JSON.stringify(raw)}`,
    );
  return Math.min(maxSessions, cap);
}

/** Episodes a worker serves before it is recycled, under `envstudio serve` (50 elsewhere). */
export const SERVE_EPISODES_PER_WORKER = 1000;

/**
 * The sandbox options `envstudio serve` starts with (SANDBOX_* variables still apply, and win).
 * Sessions of one source share up to one worker per core (shared-workers.ts): each worker steps
 * many sessions in turn, so 32 sessions on 2 cores keep two warm workers busy instead of 32
 * workers evicting each other from the caches (docs/benchmarks.md, serve). Every reset runs the
 * source into a fresh module and builds a fresh instance (docs/sandbox.md, warm reset), so a
 * worker may host many episodes of its source over its life.
 *
 * ENVSTUDIO_SERVE_ISOLATION=episode gives every episode an interpreter of its own instead, never
 * shared side by side or reused after it (docs/sandbox.md: what shared interpreters do not isolate),
 * with one booted spare per core so a reset rarely waits for a boot; docs/benchmarks.md has its cost.
 */
export function serveSandboxOptions(
  maxSessions: number,
  env: Record<string, string | undefined> = process.env,
): { poolSize: number; maxEpisodesPerWorker?: number; workersPerSource?: number; spareWorkers?: number } {
  const poolSize = servePoolSize(maxSessions, env);
  const isolation = IsolationEnvSchema.safeParse(env);
  if (!isolation.success)
    throw new Error(
      `Invalid configuration:\n  ${formatZodIssues(isolation.error, { root: "config", separator: "\n  " })}`,
    );
  const perEpisode = isolation.data.ENVSTUDIO_SERVE_ISOLATION === "episode";
  return {
    poolSize,
    ...(env.SANDBOX_MAX_EPISODES_PER_WORKER
      ? {}
      : { maxEpisodesPerWorker: perEpisode ? 1 : SERVE_EPISODES_PER_WORKER }),
    ...(env.SANDBOX_WORKERS_PER_SOURCE ? {} : { workersPerSource: perEpisode ? 0 : availableParallelism() }),
    ...(perEpisode && !env.SANDBOX_SPARE_WORKERS ? { spareWorkers: availableParallelism() } : {}),
  };
}

/** Live sessions the sandbox can host: one per worker, or any number when workers are shared. */
export function sandboxSessionCeiling(
  options: { poolSize: number; workersPerSource: number },
  maxSessions: number,
): number {
  return options.workersPerSource > 0 ? maxSessions : options.poolSize;
}

export async function startEnvServer(catalog: Catalog, sandbox: SandboxRunner, opts: ServeOptions) {
  const policy = accessPolicy(opts.host, opts.token, () => randomBytes(24).toString("base64url"));
  const sessions = createSessions(catalog, sandbox, opts);
  const lifecycle = createLifecycle();
  const { server, closeSockets, closeMcp } = createEnvServer(catalog, sessions, policy, lifecycle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const reaper = setInterval(
    () => void sessions.reap().then(() => sessions.releaseLost()),
    Math.max(1000, Math.min(opts.idleMs / 2, 30_000)),
  );
  reaper.unref();
  const pruning = opts.journal
    ? startJournalPruning(
        opts.journal,
        journalRetentionMs(opts.journalRetentionMs ?? DEFAULT_JOURNAL_RETENTION_MS, opts.idleMs),
      )
    : { stop: () => undefined, first: Promise.resolve(0) };
  return {
    /** null: open to loopback clients without a token. */
    token: policy.token,
    port: (server.address() as AddressInfo).port,
    sessions,
    /** Episodes the journal pruning deleted on start (prune-episode-journal.ts; -1: it failed). */
    prunedOnStart: pruning.first,
    /** Refuses new sessions and episodes (GET /ready answers 503) and waits for the calls in
     * flight to answer, up to `timeoutMs`; true when they all did. Then `stop`. */
    drain: (timeoutMs: number) => lifecycle.drain(timeoutMs),
    stop: async () => {
      clearInterval(reaper);
      pruning.stop();
      closeSockets();
      await closeMcp();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sessions.closeAll();
    },
  };
}

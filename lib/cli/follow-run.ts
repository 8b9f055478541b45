/**
 * The follow loop of `envstudio pipeline run`: prints progress until the run settles. The run
 * goes on in the workers whatever happens here, so a database error (a restart, a failover) is
 * retried with backoff and announced on stderr; the command gives up — with a clear message and
 * exit code 3 — only once the database has been unreachable for `dbWaitMs`.
 */
import { isAppError } from "../core/errors";
import type { Db } from "../db";
import { unpricedWarning } from "../llm";
import { type RunProgress, getRunProgress } from "../pipeline/server/get-run";
import type { CliIo } from "./cli-io";

export const DB_GAVE_UP_EXIT = 3;

export function formatProgress(p: RunProgress, elapsedMs: number): string {
  const stages = p.stages
    .map((s) => `${s.stage} ${s.succeeded}/${s.total}${s.failed ? ` (${s.failed} failed)` : ""}`)
    .join(" · ");
  return `[${(elapsedMs / 1000).toFixed(1)}s] ${p.run.status.toLowerCase()} · ${stages} · $${p.run.costUsd.toFixed(4)} · ${p.run.promptTokens + p.run.completionTokens} tokens`;
}

/** The paid-call ledger: what the endpoint saw, and what became of it. */
export function formatAccounting(p: RunProgress): string {
  const l = p.llm;
  const lost = l.lostCostUsd ? ` (incl. $${l.lostCostUsd.toFixed(4)} estimated for lost answers)` : "";
  return `  LLM: ${l.requestsSent} requests sent · ${l.answersUsed} answers used · ${l.answersRejected} rejected · ${l.errorResponses} error responses · ${l.answersLost} answers lost · ${l.cacheHits} cache hits · $${l.costUsd.toFixed(4)}${lost}`;
}

export type FollowOptions = {
  pollMs: number;
  dbWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

const describe = (e: unknown) =>
  (e instanceof Error ? (e.message.split("\n").find((l) => l.trim()) ?? e.name) : String(e)).trim();

export async function followRun(db: Db, runId: string, io: CliIo, opts: FollowOptions): Promise<number> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = opts.now ?? Date.now;
  const started = now();
  let last = "";
  let downSince: number | null = null;
  for (let failures = 0; ;) {
    let progress: RunProgress;
    try {
      progress = await getRunProgress(db, runId);
    } catch (error) {
      if (isAppError(error)) throw error; // not a database outage (e.g. the run was deleted)
      downSince ??= now();
      const downMs = now() - downSince;
      if (downMs >= opts.dbWaitMs) {
        io.err(
          `envstudio pipeline run: the database has been unreachable for ${Math.round(downMs / 1000)} s (${describe(error)}); giving up following run ${runId}. The run itself goes on in the workers: follow it in the studio at /runs/${runId}.`,
        );
        return DB_GAVE_UP_EXIT;
      }
      const delay = Math.min(5_000, opts.pollMs * 2 ** failures, Math.max(1, opts.dbWaitMs - downMs));
      failures += 1;
      io.err(
        `database error while following the run (${describe(error)}); retrying in ${(delay / 1000).toFixed(1)} s`,
      );
      await sleep(delay);
      continue;
    }
    if (downSince !== null) {
      io.err(
        `database reachable again after ${((now() - downSince) / 1000).toFixed(1)} s; still following run ${runId}`,
      );
      downSince = null;
      failures = 0;
    }
    const line = formatProgress(progress, now() - started);
    if (line.replace(/^\[[^\]]*\] /, "") !== last) io.out(line);
    last = line.replace(/^\[[^\]]*\] /, "");
    if (progress.run.isTerminal) {
      io.out(formatAccounting(progress));
      if (progress.llm.unpricedModels.length)
        io.err(`warning: cost understated: ${unpricedWarning(progress.llm.unpricedModels)}`);
      for (const f of progress.failures)
        io.out(`  failed: ${f.stage} ${f.subjectKey}: ${f.errorCode}: ${f.errorMessage}`);
      for (const e of progress.environments)
        io.out(`  environment ${e.name} (${e.id}): ${e.status.toLowerCase()}, ${e.toolCount} tools`);
      return progress.run.status === "SUCCEEDED" ? 0 : 1;
    }
    await sleep(opts.pollMs);
  }
}

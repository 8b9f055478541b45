import "server-only";
/**
 * What a run's LLM calls cost and how the endpoint behaved, from LlmCall: requests sent (every
 * HTTP attempt, counted before it went out), what became of them — answers used, answers the
 * stages rejected, error responses, answers lost (sent by a process that died before storing the
 * answer) and requests still in flight — so that used + rejected + errors + lost + in flight =
 * sent, the number the endpoint saw. Endpoint quality per model: error rate, causes, p95 latency.
 * Models without a price are named: their calls count $0, so the cost shown is too low.
 * The problems list gives each rejected, failed, lost or retried call with its cause.
 */
import type { Db } from "@/lib/db";
import { type AttemptEntry, AttemptEntrySchema } from "@/lib/llm/call-record";
import type { EndpointQuality, LlmAccountingView, LlmProblemView } from "@/lib/pipeline/run-view.schema";

export type { EndpointQuality };

/** The run view's accounting, as the server computes it (get-run.ts sends it as is). */
export type LlmAccounting = LlmAccountingView;

/** A problem call as the server has it: its date not yet a string. */
export type LlmProblem = Omit<LlmProblemView, "createdAt"> & { createdAt: Date };

/**
 * The stored attempt log (JSON written by the recorder) as entries: one that does not parse is left
 * out rather than sent to a page that parses the run view with the same schema.
 */
function attemptEntries(log: unknown): AttemptEntry[] {
  if (!Array.isArray(log)) return [];
  return log.flatMap((entry) => {
    const parsed = AttemptEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

type Totals = {
  sent: number;
  used: number;
  rejected: number;
  errors: number;
  lost: number;
  inflight: number;
  hits: number;
  cost: string;
  lostcost: string;
};

export async function getLlmAccounting(db: Db, runId: string): Promise<LlmAccounting> {
  // Failed attempts per call come from its attempt log (written before each retry and at the end).
  const [t] = await db.$queryRaw<Totals[]>`
    WITH c AS (
      SELECT status, cached, attempts, "costUsd",
        (SELECT count(*) FROM jsonb_array_elements("attemptLog") e WHERE (e->>'ok') = 'false')::int AS failed
      FROM "LlmCall" WHERE "runId" = ${runId}
    )
    SELECT COALESCE(sum(attempts) FILTER (WHERE NOT cached), 0)::int AS sent,
      count(*) FILTER (WHERE NOT cached AND status = 'ACCEPTED')::int AS used,
      count(*) FILTER (WHERE NOT cached AND status = 'REJECTED')::int AS rejected,
      COALESCE(sum(failed), 0)::int AS errors,
      COALESCE(sum(attempts - failed) FILTER (WHERE status = 'LOST'), 0)::int AS lost,
      COALESCE(sum(attempts - failed) FILTER (WHERE status = 'PENDING'), 0)::int AS inflight,
      count(*) FILTER (WHERE cached)::int AS hits,
      COALESCE(sum("costUsd") FILTER (WHERE status <> 'PENDING'), 0)::text AS cost,
      COALESCE(sum("costUsd") FILTER (WHERE status = 'LOST'), 0)::text AS lostcost
    FROM c`;
  return {
    requestsSent: t?.sent ?? 0,
    answersUsed: t?.used ?? 0,
    answersRejected: t?.rejected ?? 0,
    errorResponses: t?.errors ?? 0,
    answersLost: t?.lost ?? 0,
    inFlight: t?.inflight ?? 0,
    cacheHits: t?.hits ?? 0,
    costUsd: Number(t?.cost ?? 0),
    lostCostUsd: Number(t?.lostcost ?? 0),
    unpricedModels: await unpricedModels(db, runId),
    endpoints: await endpointQuality(db, runId),
  };
}

async function unpricedModels(db: Db, runId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ model: string }[]>`
    SELECT DISTINCT model FROM "LlmCall" WHERE "runId" = ${runId} AND unpriced AND NOT cached ORDER BY model`;
  return rows.map((r) => r.model);
}

async function endpointQuality(db: Db, runId: string): Promise<EndpointQuality[]> {
  const rows = await db.$queryRaw<{ model: string; attempts: number; errors: number; p95: number | null }[]>`
    SELECT c.model, count(*)::int AS attempts, count(*) FILTER (WHERE (e->>'ok') = 'false')::int AS errors,
      percentile_cont(0.95) WITHIN GROUP (ORDER BY (e->>'latencyMs')::float) AS p95
    FROM "LlmCall" c CROSS JOIN LATERAL jsonb_array_elements(c."attemptLog") e
    WHERE c."runId" = ${runId} AND NOT c.cached GROUP BY c.model ORDER BY c.model`;
  const causes = await db.$queryRaw<{ model: string; code: string; count: number }[]>`
    SELECT c.model, COALESCE(e->>'code', '?') AS code, count(*)::int AS count
    FROM "LlmCall" c CROSS JOIN LATERAL jsonb_array_elements(c."attemptLog") e
    WHERE c."runId" = ${runId} AND NOT c.cached AND (e->>'ok') = 'false' GROUP BY 1, 2 ORDER BY 3 DESC`;
  return rows.map((r) => ({
    model: r.model,
    attempts: r.attempts,
    errors: r.errors,
    errorRate: r.attempts ? r.errors / r.attempts : 0,
    p95LatencyMs: r.p95 === null ? null : Math.round(r.p95),
    causes: causes.filter((c) => c.model === r.model).map(({ code, count }) => ({ code, count })),
  }));
}

/** Rejected, failed, lost and retried calls, newest first, with their causes and the raw reply. */
export async function getLlmProblems(db: Db, runId: string, take = 50): Promise<LlmProblem[]> {
  const calls = await db.llmCall.findMany({
    where: { runId, OR: [{ status: { in: ["REJECTED", "FAILED", "LOST"] } }, { attempts: { gt: 1 } }] },
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
      stepId: true,
      purpose: true,
      model: true,
      status: true,
      cached: true,
      attempts: true,
      rejection: true,
      errorMessage: true,
      response: true,
      attemptLog: true,
      createdAt: true,
    },
  });
  return calls.map(({ response, attemptLog, ...c }) => ({
    ...c,
    attemptLog: attemptEntries(attemptLog),
    rawReply: rawText(response),
  }));
}

/** The model's text (or tool calls) of a stored reply. */
export function rawText(response: unknown): string | null {
  if (!response || typeof response !== "object") return null;
  const r = response as { content?: unknown; toolCalls?: unknown[] };
  if (typeof r.content === "string" && r.content) return r.content;
  return r.toolCalls?.length ? JSON.stringify(r.toolCalls) : null;
}

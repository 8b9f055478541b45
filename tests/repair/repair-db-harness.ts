/**
 * TEST ONLY. What the repair DB tests share: a database of their own, the sandbox and scripted model
 * of useRepairHarness, REPAIR runs executed to the end against them, samples seeded with the tools
 * the sandbox extracts, and an accept raced against a save held open on a second connection.
 */
import pg from "pg";
import { afterEach } from "vitest";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { enqueueRepairRun, executeRepairRun, summarizeRepairRun } from "@/lib/repair/server/repair-run";
import { decideItem, decideReviewItem } from "@/lib/review/server/decide-item";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createTestProject } from "@/prisma/seed/factories";
import { toolsExtractedBy } from "@/prisma/seed/sandbox-tools";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { someoneWaitsOnALock } from "@/tests/lock-wait";
import { useRepairHarness } from "./repair-harness";

type Sample = Parameters<typeof seedSamples>[1]["samples"][number];
export type RepairItems = { scenarioIds?: string[]; environmentIds?: string[] };
/** A statement of the held-open save and its parameters. */
export type SaveStatement = [sql: string, params: unknown[]];

export function useRepairDb() {
  const t = useTestDatabase();
  const harness = useRepairHarness();
  const clients: pg.Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.end().catch(() => undefined);
  });

  const llmFor = () =>
    createRunLlmFactory(t.db, {
      baseUrl: harness.fake.url,
      apiKey: "test",
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 10 },
    });

  /** A REPAIR run of `items` with model m-repair, executed as its last attempt, and its summary. */
  async function repairRun(projectId: string, items: RepairItems, maxCostUsd: number | null = null) {
    const run = await enqueueRepairRun(t.db, () => Promise.resolve(null), {
      projectId,
      ...items,
      config: { model: "m-repair", prices: { "m-repair": { input: 1, output: 2 } } },
      maxCostUsd,
      label: "test",
    });
    await executeRepairRun(
      t.db,
      run.id,
      { sandbox: harness.sandbox, llmFor: llmFor() },
      { finalAttempt: true },
    );
    return summarizeRepairRun(t.db, run.id);
  }

  /** A new project (its name starts with `prefix`) holding `samples` with the tools the sandbox extracts. */
  async function projectWithSamples(prefix: string, samples: Sample[]) {
    const project = await createTestProject(t.db, `${prefix}-${Math.random().toString(36).slice(2, 8)}`);
    await seedSamples(t.db, { projectId: project.id, samples, toolsFor: toolsExtractedBy(harness.sandbox) });
    return project;
  }

  /**
   * Accepts the proposal while a save (`statements`, in a transaction on a second connection) is in
   * flight, and commits the save once the accept waits on its lock: "accepted", or the refusal.
   */
  async function acceptDuringSave(proposalId: string, actor: SessionUser, statements: SaveStatement[]) {
    const save = new pg.Client({ connectionString: t.url });
    clients.push(save);
    await save.connect();
    await save.query("BEGIN");
    for (const [sql, params] of statements) await save.query(sql, params);
    const accept = decideItem(
      t.db,
      { kind: "repair", id: proposalId, decision: "ACCEPT", reason: "" },
      actor,
    ).then(
      () => "accepted",
      (error: unknown) => error,
    );
    await someoneWaitsOnALock(save, "the accept");
    await save.query("COMMIT");
    return accept;
  }

  /** Accepts the proposal as the review queue does (the proof run it starts is queued nowhere). */
  const acceptProposal = (proposalId: string, actor: SessionUser) =>
    decideReviewItem(t.db, { kind: "repair", id: proposalId, decision: "ACCEPT", reason: "" }, actor, () =>
      Promise.resolve("job"),
    );

  /** The project's latest `count` audit rows, oldest first, as "TARGET DECISION". */
  async function latestDecisions(projectId: string, count: number) {
    const log = await t.db.reviewDecision.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
    return log.map((d) => `${d.targetType} ${d.decision}`).slice(-count);
  }

  /** Rejects the proposal with `reason` and answers the proposal as stored and its REJECT rows. */
  async function rejectProposal(proposalId: string, actor: SessionUser, reason: string) {
    await decideItem(t.db, { kind: "repair", id: proposalId, decision: "REJECT", reason }, actor);
    return {
      proposal: await t.db.repairProposal.findUniqueOrThrow({ where: { id: proposalId } }),
      logged: await t.db.reviewDecision.count({
        where: { targetId: proposalId, decision: "REJECT", reason },
      }),
    };
  }

  return {
    t,
    sandbox: harness.sandbox,
    get fake() {
      return harness.fake;
    },
    repairRun,
    projectWithSamples,
    acceptProposal,
    acceptDuringSave,
    rejectProposal,
    latestDecisions,
  };
}

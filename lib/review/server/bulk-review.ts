import "server-only";
/**
 * Bulk decisions on the review queue: accept, reject (one reason), prove, add to a dataset. Each
 * item is decided exactly as a single decision is (decideItemInTx: version-bound, claims honoured,
 * override reasons required, one audit row per item), in bounded batches: BULK_BATCH items per
 * transaction, each item under a savepoint so a refused item rolls back alone and is reported as
 * skipped with the reason. Under the item's lock the bulk path also checks the item is still waiting
 * for review, so two bulk decisions over the same items never decide one twice (the second finds it
 * decided and skips it). A lock conflict between two concurrent bulks (a deadlock Postgres broke)
 * retries that item alone after its batch; a batch that does not commit is retried item by item.
 */
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import { parseInput } from "@/lib/core/parse-input";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { roleAtLeast } from "@/lib/auth/roles";
import { sendJob, type JobSender } from "@/lib/jobs/server/send-job";
import { readLlmConfig } from "@/lib/llm";
import { enqueueProofRun } from "@/lib/scenarios/server/proof-run";
import { lockScenarioPins } from "@/lib/scenarios/server/lock-scenario-pins";
import { reproveAfterEdit } from "@/lib/scenarios/server/reprove-after-edit";
import { createDatasetVersion, previewDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import {
  BULK_CAP,
  type BulkItem,
  type BulkReply,
  type BulkSkipped,
  BulkAcceptInputSchema,
  AddScenariosToDatasetInputSchema,
  BulkAddToDatasetInputSchema,
  BulkProveInputSchema,
  BulkRejectInputSchema,
  type BulkSelectionSchema,
} from "../bulk.schema";
import type { ReviewKind } from "../review.schema";
import { decideItemInTx } from "./decide-item";
import { queueWhere } from "./find-review-queue";

type Tx = Prisma.TransactionClient;
type Selection = ReturnType<typeof BulkSelectionSchema.parse>;
type Resolved = { targets: BulkItem[]; skipped: BulkSkipped[]; selected: number };

/** Items per transaction: short enough that no lock is held for long, long enough to save round trips. */
export const BULK_BATCH = 25;
const KIND_ORDER: Record<ReviewKind, number> = { environment: 0, scenario: 1, trajectory: 2, repair: 3 };
const SCENARIO_WAITING = ["DRAFT", "IN_REVIEW"];

function requireReviewer(actor: SessionUser) {
  if (!roleAtLeast(actor.role, "REVIEWER"))
    throw new AppError("FORBIDDEN", "Deciding review items needs the reviewer role.");
}

const messageOf = (e: unknown) =>
  e instanceof AppError ? e.message : e instanceof Error ? e.message : "could not be decided";

/** A deadlock or serialization failure Postgres reported: the item is retried, not skipped. */
function isLockConflict(e: unknown): boolean {
  const text = `${(e as { code?: string })?.code ?? ""} ${e instanceof Error ? e.message : String(e)}`;
  return /P2034|40P01|40001|deadlock detected|could not serialize/i.test(text);
}

const keyOf = (i: { kind: string; id: string }) => `${i.kind}:${i.id}`;

/**
 * The selection as decidable items. Ticked items carry the versions the reviewer saw. "Every item
 * matching the filter" is resolved here with the queue's own where clauses (a count the browser
 * sends is never used); each item gets its current versions, and one edited or added after `asOf`
 * (when the reviewer saw the queue) is skipped: nobody saw that version.
 */
export async function resolveSelection(db: Db, projectId: string, selection: Selection): Promise<Resolved> {
  if (selection.mode === "items") {
    const seen = new Set<string>();
    const targets = selection.items.filter((i) => !seen.has(keyOf(i)) && seen.add(keyOf(i)));
    return { targets, skipped: [], selected: targets.length };
  }
  const { envWhere, scenarioWhere, tw, wants, repairWhere } = queueWhere(projectId, selection.filter);
  const [envCount, scenarioCount, trajCount, repairCount] = await Promise.all([
    wants.environment ? db.environment.count({ where: envWhere }) : 0,
    wants.scenario ? db.scenario.count({ where: scenarioWhere }) : 0,
    wants.trajectory ? db.trajectory.count({ where: tw }) : 0,
    wants.repair ? db.repairProposal.count({ where: repairWhere }) : 0,
  ]);
  const total = envCount + scenarioCount + trajCount + repairCount;
  if (total > BULK_CAP)
    throw new AppError(
      "INVALID_INPUT",
      `${total} items match this filter; at most ${BULK_CAP} can be decided at once: narrow the filter.`,
    );
  const asOf = new Date(selection.asOf);
  const [envs, scenarios, trajectories, repairs] = await Promise.all([
    wants.environment
      ? db.environment.findMany({
          where: envWhere,
          select: { id: true, currentVersionId: true, currentVersion: { select: { createdAt: true } } },
        })
      : [],
    wants.scenario
      ? db.scenario.findMany({
          where: scenarioWhere,
          select: {
            id: true,
            createdAt: true,
            environment: {
              select: { currentVersionId: true, currentVersion: { select: { createdAt: true } } },
            },
            validators: {
              orderBy: { position: "asc" },
              select: { currentVersionId: true, currentVersion: { select: { createdAt: true } } },
            },
          },
        })
      : [],
    wants.trajectory ? db.trajectory.findMany({ where: tw, select: { id: true, createdAt: true } }) : [],
    wants.repair
      ? db.repairProposal.findMany({ where: repairWhere, select: { id: true, createdAt: true } })
      : [],
  ]);
  const except = new Set(selection.except);
  const skipped: BulkSkipped[] = [];
  const targets: BulkItem[] = [];
  const after = (d: Date | null | undefined) => !!d && d > asOf;
  const take = (item: BulkItem, changed: boolean) => {
    if (except.has(keyOf(item))) return;
    if (changed)
      skipped.push({
        kind: item.kind,
        id: item.id,
        reason: "changed since you selected it: review the current version",
      });
    else targets.push(item);
  };
  for (const e of envs)
    take(
      { kind: "environment", id: e.id, versionId: e.currentVersionId ?? "" },
      after(e.currentVersion?.createdAt),
    );
  for (const s of scenarios)
    take(
      {
        kind: "scenario",
        id: s.id,
        environmentVersionId: s.environment.currentVersionId ?? "",
        validatorVersionIds: s.validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
      },
      after(s.createdAt) ||
        after(s.environment.currentVersion?.createdAt) ||
        s.validators.some((v) => after(v.currentVersion?.createdAt)),
    );
  for (const t of trajectories) take({ kind: "trajectory", id: t.id }, after(t.createdAt));
  for (const r of repairs) take({ kind: "repair", id: r.id }, after(r.createdAt));
  return { targets, skipped, selected: targets.length + skipped.length };
}

/**
 * Locks the item (in the order decideItemInTx locks it, so a save and a decision never deadlock)
 * and refuses it when it is no longer waiting for review: decided meanwhile, by this reviewer's
 * other bulk decision or someone else.
 */
async function lockWaiting(tx: Tx, item: BulkItem) {
  const done = (status: string) =>
    new AppError(
      "CONFLICT",
      `already ${status === "ACCEPT" ? "accepted" : status === "REJECT" ? "rejected" : status.toLowerCase().replace("_", " ")}`,
    );
  if (item.kind === "environment") {
    const [row] = await tx.$queryRaw<{ status: string; archivedAt: Date | null }[]>`
      SELECT "status", "archivedAt" FROM "Environment" WHERE "id" = ${item.id} FOR UPDATE`;
    if (!row) throw new AppError("NOT_FOUND", "not found");
    if (row.archivedAt) throw new AppError("CONFLICT", "archived");
    if (row.status !== "IN_REVIEW") throw done(row.status);
  } else if (item.kind === "scenario") {
    if (!(await lockScenarioPins(tx, item.id))) throw new AppError("NOT_FOUND", "not found");
    const s = await tx.scenario.findUniqueOrThrow({ where: { id: item.id }, select: { status: true } });
    if (!SCENARIO_WAITING.includes(s.status)) throw done(s.status);
  } else if (item.kind === "trajectory") {
    const [row] = await tx.$queryRaw<{ reviewDecision: string | null }[]>`
      SELECT "reviewDecision"::text AS "reviewDecision" FROM "Trajectory" WHERE "id" = ${item.id} FOR UPDATE`;
    if (!row) throw new AppError("NOT_FOUND", "not found");
    if (row.reviewDecision) throw done(row.reviewDecision);
  }
  // Repair proposals: decideRepair locks the proposal and refuses one already decided.
}

type Decided = { reprove?: string };

async function decideOne(
  tx: Tx,
  item: BulkItem,
  decision: "ACCEPT" | "REJECT",
  reason: string,
  actor: SessionUser,
): Promise<Decided> {
  await lockWaiting(tx, item);
  const r = await decideItemInTx(tx, { ...item, decision, reason }, actor);
  return r.reprove ? { reprove: r.reprove } : {};
}

/** Decides the targets in batches; answers how many were decided and each skip with its reason. */
async function decideAll(
  db: Db,
  targets: BulkItem[],
  decision: "ACCEPT" | "REJECT",
  reason: string,
  actor: SessionUser,
  send: JobSender,
) {
  const sorted = [...targets].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let decided = 0;
  const skipped: BulkSkipped[] = [];
  const reprove = new Set<string>();
  const skip = (item: BulkItem, e: unknown) =>
    skipped.push({ kind: item.kind, id: item.id, reason: messageOf(e) });
  for (let i = 0; i < sorted.length; i += BULK_BATCH) {
    const batch = sorted.slice(i, i + BULK_BATCH);
    const done: Decided[] = [];
    const refused: [BulkItem, unknown][] = [];
    const retry: BulkItem[] = [];
    try {
      await db.$transaction(
        async (tx) => {
          for (const item of batch) {
            await tx.$executeRawUnsafe("SAVEPOINT bulk_item");
            try {
              done.push(await decideOne(tx, item, decision, reason, actor));
              await tx.$executeRawUnsafe("RELEASE SAVEPOINT bulk_item");
            } catch (e) {
              await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT bulk_item");
              await tx.$executeRawUnsafe("RELEASE SAVEPOINT bulk_item");
              if (isLockConflict(e)) retry.push(item);
              else refused.push([item, e]);
            }
          }
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
    } catch {
      // The batch did not commit (a lock conflict, a timeout): nothing in it was decided, so each
      // item is tried alone and reported on its own.
      done.length = 0;
      refused.length = 0;
      retry.splice(0, retry.length, ...batch);
    }
    for (const item of retry) {
      for (let attempt = 1; ; attempt++) {
        try {
          done.push(await db.$transaction((tx) => decideOne(tx, item, decision, reason, actor)));
          break;
        } catch (e) {
          if (isLockConflict(e) && attempt < 3) continue;
          refused.push([item, e]);
          break;
        }
      }
    }
    decided += done.length;
    for (const d of done) if (d.reprove) reprove.add(d.reprove);
    for (const [item, e] of refused) skip(item, e);
  }
  // Accepted repairs: their new versions need a proof before anything uses them (as a single decision).
  for (const environmentId of reprove) await reproveAfterEdit(db, { environmentId, actorId: actor.id }, send);
  return { decided, skipped };
}

type BulkRun<I> = (
  db: Db,
  projectId: string,
  input: I,
  actor: SessionUser,
  send: JobSender,
) => Promise<BulkReply>;

/** A bulk operation: only a reviewer may run it, and its input is parsed before anything is read. */
function bulkOperation<S extends z.ZodType>(schema: S, run: BulkRun<z.infer<S>>) {
  return async (db: Db, projectId: string, raw: unknown, actor: SessionUser, send: JobSender = sendJob) => {
    requireReviewer(actor);
    return run(db, projectId, parseInput(schema, raw), actor, send);
  };
}

/** Decides every item of the selection the same way; the items resolving skipped stay skipped. */
async function decideSelection(
  db: Db,
  projectId: string,
  selection: Selection,
  verdict: { decision: "ACCEPT" | "REJECT"; reason: string },
  actor: SessionUser,
  send: JobSender,
): Promise<BulkReply> {
  const { targets, skipped, selected } = await resolveSelection(db, projectId, selection);
  const r = await decideAll(db, targets, verdict.decision, verdict.reason, actor, send);
  return { selected, decided: r.decided, skipped: [...skipped, ...r.skipped] };
}

/** Bulk accept: items whose acceptance needs a written override reason are skipped with it. */
export const bulkAccept = bulkOperation(BulkAcceptInputSchema, (db, projectId, input, actor, send) =>
  decideSelection(db, projectId, input.selection, { decision: "ACCEPT", reason: "" }, actor, send),
);

/** Bulk reject with one reason, logged on every item. */
export const bulkReject = bulkOperation(BulkRejectInputSchema, (db, projectId, input, actor, send) =>
  decideSelection(db, projectId, input.selection, { decision: "REJECT", reason: input.reason }, actor, send),
);

/** The selected scenarios of this project (others skipped: not a scenario, or not found). */
async function selectedScenarios(db: Db, projectId: string, targets: BulkItem[], skipped: BulkSkipped[]) {
  const wanted = targets.filter((t) => t.kind === "scenario").map((t) => t.id);
  const found = await db.scenario.findMany({
    where: { id: { in: wanted }, environment: { projectId } },
    select: { id: true, environmentId: true },
  });
  const known = new Set(found.map((s) => s.id));
  for (const t of targets) {
    if (t.kind !== "scenario")
      skipped.push({ kind: t.kind, id: t.id, reason: `only scenarios can be used here, not a ${t.kind}` });
    else if (!known.has(t.id)) skipped.push({ kind: t.kind, id: t.id, reason: "not found" });
  }
  return found;
}

/** Bulk prove: one PROOF run for the selected scenarios (the run an environment page launches). */
export const bulkProve = bulkOperation(BulkProveInputSchema, async (db, projectId, input, actor, send) => {
  const { targets, skipped, selected } = await resolveSelection(db, projectId, input.selection);
  const scenarios = await selectedScenarios(db, projectId, targets, skipped);
  if (!scenarios.length) return { selected, decided: 0, skipped, runId: null };
  const environments = new Set(scenarios.map((s) => s.environmentId));
  const llm = readLlmConfig();
  const run = await enqueueProofRun(db, send, {
    projectId,
    scenarioIds: scenarios.map((s) => s.id),
    environmentId: environments.size === 1 ? [...environments][0] : undefined,
    config: { goldModel: llm.baseUrl ? llm.defaultModel : null },
    createdById: actor.id,
    reason: "requested from the review queue",
  });
  return { selected, decided: scenarios.length, skipped, runId: run.id };
});

/**
 * Bulk add to a dataset: its next version holds the latest version's items plus the selected
 * scenarios, made by createDatasetVersion with the dataset's rules (accepted and proven pins; no
 * override here). Environments already in the dataset keep their pinned versions and seed and
 * split ratio carry over. Selected scenarios the plan leaves out are skipped with its reason; when
 * none can be added no version is made.
 */
export const bulkAddToDataset = bulkOperation(
  BulkAddToDatasetInputSchema,
  async (db, projectId, input, actor) => {
    const dataset = await findDatasetOrThrow(db, projectId, input.datasetId);
    const { targets, skipped, selected } = await resolveSelection(db, projectId, input.selection);
    const scenarios = await selectedScenarios(db, projectId, targets, skipped);
    return addToNextVersion(db, projectId, dataset, { scenarios, skipped, selected }, actor);
  },
);

/**
 * Scenarios ticked on the Scenarios list, added to a dataset's next version by the same rules as
 * from the queue (accepted, proven on the version's pins; the rest reported with the reason).
 */
export const addScenariosToDataset = bulkOperation(
  AddScenariosToDatasetInputSchema,
  async (db, projectId, input, actor) => {
    const dataset = await findDatasetOrThrow(db, projectId, input.datasetId);
    const wanted = [...new Set(input.scenarioIds)];
    const targets = wanted.map((id) => ({ kind: "scenario" as const, id }) as BulkItem);
    const skipped: BulkSkipped[] = [];
    const scenarios = await selectedScenarios(db, projectId, targets, skipped);
    return addToNextVersion(db, projectId, dataset, { scenarios, skipped, selected: wanted.length }, actor);
  },
);

async function findDatasetOrThrow(db: Db, projectId: string, datasetId: string) {
  const dataset = await db.dataset.findFirst({ where: { id: datasetId, projectId } });
  if (!dataset) throw new AppError("NOT_FOUND", "That dataset was not found.");
  return dataset;
}

/** The dataset's next version: its latest version's items and pins, plus `scenarios`. */
async function addToNextVersion(
  db: Db,
  projectId: string,
  dataset: { id: string; name: string },
  picked: { scenarios: { id: string; environmentId: string }[]; skipped: BulkSkipped[]; selected: number },
  actor: SessionUser,
): Promise<BulkReply> {
  const { scenarios, skipped, selected } = picked;
  if (!scenarios.length) return { selected, decided: 0, skipped, dataset: null };
  const latest = await db.datasetVersion.findFirst({
    where: { datasetId: dataset.id },
    orderBy: { version: "desc" },
    include: {
      items: {
        select: {
          scenarioId: true,
          environmentVersionId: true,
          environmentVersion: { select: { environmentId: true } },
        },
      },
    },
  });
  const previous = latest?.items ?? [];
  const pins = Object.fromEntries(
    previous.map((i) => [i.environmentVersion.environmentId, i.environmentVersionId]),
  );
  const keep = new Set([...previous.map((i) => i.scenarioId), ...scenarios.map((s) => s.id)]);
  const environments = [...new Set([...Object.keys(pins), ...scenarios.map((s) => s.environmentId)])];
  const others = await db.scenario.findMany({
    where: { environmentId: { in: environments }, id: { notIn: [...keep] } },
    select: { id: true },
  });
  const plan = {
    projectId,
    name: dataset.name,
    seed: latest?.seed ?? 42,
    testRatio: latest?.testRatio ?? 0.2,
    environments,
    pins,
    excludeScenarioIds: others.map((s) => s.id),
    createdById: actor.id,
  };
  const preview = await previewDatasetVersion(db, plan);
  const included = new Set(preview.included.map((i) => i.scenarioId));
  const excludedWhy = new Map(preview.excluded.map((e) => [e.scenarioId, e.reason]));
  const adding = scenarios.filter((s) => included.has(s.id));
  for (const s of scenarios)
    if (!included.has(s.id))
      skipped.push({
        kind: "scenario",
        id: s.id,
        reason: excludedWhy.get(s.id) ?? "left out by the dataset's rules",
      });
  if (!adding.length) return { selected, decided: 0, skipped, dataset: null };
  const version = await createDatasetVersion(db, plan);
  // The version as made (its transaction planned again): what the selection actually added.
  const made = new Set(
    (
      await db.datasetItem.findMany({
        where: { datasetVersionId: version.id, scenarioId: { in: adding.map((s) => s.id) } },
        select: { scenarioId: true },
      })
    ).map((i) => i.scenarioId),
  );
  for (const s of adding)
    if (!made.has(s.id))
      skipped.push({ kind: "scenario", id: s.id, reason: "changed while the version was made" });
  return {
    selected,
    decided: made.size,
    skipped,
    dataset: { id: dataset.id, name: dataset.name, version: version.version },
  };
}

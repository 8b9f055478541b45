import "server-only";
/**
 * proposeEnvironmentRepair: a repair proposal for an environment whose quality probes failed — on
 * the newest quality check of its current version, a probe whose verdict (a reviewer's over the
 * judge's) is FAIL. Checked before any LLM request (environmentRepairRefusal). The evidence is the
 * failed probes (tool, arguments, observation, state diff, rationale) on the check's test state,
 * the environment's code and its sibling scenarios: those whose proof of exactly the current
 * versions VERIFIED, re-proven against the changed code with the gold that proof used. The pure
 * core (lib/repair/repair-environment.ts) asks, splices and proves; the proposal is stored PROVEN
 * or FAILED with its evidence and both sides of the proof, naming the version it was made against.
 */
import { AppError } from "@/lib/core/errors";
import { type Result, err, ok } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import { type Db, Prisma } from "@/lib/db";
import { JsonObjectSchema } from "@/lib/sandbox/sandbox.schema";
import { isSamePins, proofRowOf } from "@/lib/scenarios/proof-status";
import { GoldPartSchema } from "@/lib/scenarios/scenario.schema";
import { z } from "zod";
import {
  type EnvironmentRepairDeps,
  type EnvironmentRepairInput,
  repairEnvironment,
} from "../repair-environment";
import type { EnvironmentChange, EnvironmentEvidence, EnvironmentProof } from "../repair.schema";
import type { ProposalSummary } from "./propose-repair";

const json = (v: unknown) => (v === null ? Prisma.JsonNull : (v as Prisma.InputJsonValue));

/** A probe's verdict as it counts: the reviewer's over the judge's. */
const isFailed = (p: { verdict: string; reviewerVerdict: string | null }) =>
  (p.reviewerVerdict ?? p.verdict) === "FAIL";

/**
 * The environments (of `where`) that have a failed quality probe on their current version's newest
 * quality check, oldest first; archived and rejected ones are left out. Cheap: no sandbox, no LLM.
 */
export async function failingQualityEnvironments(
  db: Db,
  where: Prisma.EnvironmentWhereInput,
): Promise<string[]> {
  const rows = await db.environment.findMany({
    where: { ...where, archivedAt: null, status: { not: "REJECTED" } },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      currentVersion: {
        select: {
          qualityChecks: {
            orderBy: { createdAt: "desc" },
            take: 1,
            select: { probes: { select: { verdict: true, reviewerVerdict: true } } },
          },
        },
      },
    },
  });
  return rows.filter((e) => e.currentVersion?.qualityChecks[0]?.probes.some(isFailed)).map((e) => e.id);
}

async function loadEnvironmentSubject(db: Db, environmentId: string) {
  const env = await db.environment.findUnique({
    where: { id: environmentId },
    include: { currentVersion: true },
  });
  if (!env?.currentVersion) return null;
  const check = await db.qualityCheck.findFirst({
    where: { environmentVersionId: env.currentVersion.id },
    orderBy: { createdAt: "desc" },
    include: { probes: { orderBy: { index: "asc" } } },
  });
  return { env, version: env.currentVersion, check, failing: check?.probes.filter(isFailed) ?? [] };
}

/**
 * Why this environment cannot get a code repair, or null. Cheap (no sandbox, no LLM): the CLI, the
 * button and the run ask it before anything is spent.
 */
export async function environmentRepairRefusal(db: Db, environmentId: string): Promise<string | null> {
  const subject = await loadEnvironmentSubject(db, environmentId);
  if (!subject) return `there is no environment with the id "${environmentId}" (or it has no code)`;
  const { env, version, check, failing } = subject;
  if (env.archivedAt) return "it is archived";
  if (env.status === "REJECTED") return "it was rejected";
  if (!check) return `its current version (v${version.version}) has no quality check`;
  if (failing.length === 0)
    return `no quality probe of its current version (v${version.version}) failed: nothing to repair`;
  return null;
}

/** The scenarios verified on exactly the current versions, with the gold their proof used. */
async function verifiedSiblings(db: Db, environmentId: string, environmentVersionId: string) {
  const scenarios = await db.scenario.findMany({
    where: { environmentId, status: { not: "REJECTED" } },
    orderBy: { externalId: "asc" },
    include: {
      validators: { orderBy: { position: "asc" }, include: { currentVersion: true } },
      proofs: { orderBy: { createdAt: "desc" } },
    },
  });
  const siblings: (EnvironmentRepairInput["siblings"][number] & { scenarioId: string })[] = [];
  for (const s of scenarios) {
    const pins = {
      environmentVersionId,
      validatorVersionIds: s.validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
    };
    const proof = s.proofs.find((p) => isSamePins(proofRowOf(p), pins));
    if (proof?.status !== "VERIFIED") continue;
    const gold = GoldPartSchema.safeParse(proof.gold);
    if (!gold.success || !gold.data.source) continue;
    siblings.push({
      scenarioId: s.id,
      name: s.externalId,
      initialState: JsonObjectSchema.catch({}).parse(s.initialState),
      checks: s.validators.flatMap((v) =>
        v.currentVersion ? [{ position: v.position, item: v.checkItem, code: v.currentVersion.code }] : [],
      ),
      gold: { source: gold.data.source, calls: gold.data.calls },
      // A sibling's proof answers "does it still verify"; its strength is measured by its own proofs.
      nearMisses: false,
    });
  }
  return siblings;
}

export async function proposeEnvironmentRepair(
  db: Db,
  input: { environmentId: string; runId?: string | null },
  deps: EnvironmentRepairDeps,
): Promise<Result<ProposalSummary, StepError>> {
  const refusal = await environmentRepairRefusal(db, input.environmentId);
  if (refusal)
    return err({
      code: "NOT_FAILING",
      message: `Environment ${input.environmentId}: ${refusal}.`,
      retryable: false,
    });
  const subject = await loadEnvironmentSubject(db, input.environmentId);
  if (!subject?.check)
    return err({ code: "NOT_FOUND", message: "the environment was deleted", retryable: false });
  const { env, version, check, failing } = subject;
  const siblings = await verifiedSiblings(db, env.id, version.id);
  const evidence: EnvironmentEvidence = {
    qualityCheckId: check.id,
    introduction: env.description || env.name,
    rules: z.array(z.string()).catch([]).parse(version.rules),
    testState: JsonObjectSchema.catch({}).parse(check.testState),
    probes: failing.map((p) => ({
      probeId: p.id,
      toolName: p.toolName,
      kind: p.kind,
      arguments: JsonObjectSchema.catch({}).parse(p.arguments),
      observation: p.observation,
      stateDiff: p.stateDiff,
      rationale: p.rationale,
    })),
    siblings: siblings.map((s) => ({ scenarioId: s.scenarioId, name: s.name })),
  };
  const repair = await repairEnvironment(
    {
      source: version.source,
      className: version.className,
      introduction: evidence.introduction,
      rules: evidence.rules,
      testState: evidence.testState,
      probes: evidence.probes,
      siblings,
    },
    deps,
  );
  if (!repair.ok) return repair;
  const r = repair.value;
  const changes: EnvironmentChange[] = r.replaced.length
    ? [
        {
          baseVersionId: version.id,
          className: version.className,
          before: version.source,
          after: r.source,
          replaced: r.replaced,
          tools: r.tools,
          summary: r.summary,
        },
      ]
    : [];
  const before: EnvironmentProof = {
    probes: evidence.probes.map((p) => ({
      toolName: p.toolName,
      kind: p.kind,
      arguments: p.arguments,
      observation: p.observation,
      stateDiff: p.stateDiff,
      verdict: "FAIL",
      rationale: p.rationale,
    })),
    siblings: [],
  };
  const row = await db.repairProposal.create({
    data: {
      projectId: env.projectId,
      kind: "ENVIRONMENT",
      status: r.status,
      environmentId: env.id,
      scenarioId: null,
      runId: input.runId ?? null,
      environmentVersionId: version.id,
      validatorVersionIds: [],
      changes: json(changes),
      evidence: json(evidence),
      proofBefore: json(before),
      proofAfter: json(r.after),
      reasons: json(r.reasons),
      summary: r.summary,
      model: deps.model,
    },
  });
  return ok({
    proposalId: row.id,
    scenarioId: null,
    environmentId: env.id,
    status: r.status,
    summary: r.summary,
  });
}

/** For a request that must not proceed: the refusal as an AppError. */
export async function assertEnvironmentRepairable(db: Db, environmentId: string) {
  const refusal = await environmentRepairRefusal(db, environmentId);
  if (refusal)
    throw new AppError(
      refusal.startsWith("there is no") ? "NOT_FOUND" : "CONFLICT",
      `Cannot repair the environment: ${refusal}.`,
    );
}

import "server-only";
/**
 * Repair proposals as review items: the queue lists the PROVEN ones nobody decided yet (a FAILED
 * one is kept as evidence, never offered), and the preview pane shows the current → proposed code
 * and the proofs of both side by side: for a check repair the scenario's proofs, for an
 * environment-code repair the failed probes before and, after, the probes re-run and re-judged on
 * the changed code with the sibling scenarios re-proven.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { reasonSentence, shortTitle } from "@/lib/review/queue-text";
import type { QueueItem, QueuePreview } from "@/lib/review/review.schema";
import { strengthLabel, strengthOf } from "@/lib/scenarios/near-miss-strength";
import { ProofOutcomeSchema } from "@/lib/scenarios/scenario.schema";
import {
  CheckChangesSchema,
  EnvironmentChangeSchema,
  EnvironmentProofSchema,
  type RerunProbe,
} from "../repair.schema";

const LIMIT = 200;

export const repairQueueWhere = (projectId: string, filter: { domain?: string; runId?: string } = {}) => ({
  projectId,
  status: "PROVEN" as const,
  ...(filter.domain ? { environment: { domain: filter.domain } } : {}),
  ...(filter.runId ? { runId: filter.runId } : {}),
});

export async function findRepairQueueItems(
  db: Db,
  projectId: string,
  opts: { taken: string[]; domain?: string; runId?: string },
): Promise<QueueItem[]> {
  const rows = await db.repairProposal.findMany({
    where: { ...repairQueueWhere(projectId, opts), id: { notIn: opts.taken } },
    orderBy: { createdAt: "asc" },
    take: LIMIT,
    include: {
      environment: { select: { name: true, domain: true } },
      scenario: { select: { externalId: true, task: true } },
    },
  });
  const versions = new Map(
    (
      await db.environmentVersion.findMany({
        where: { id: { in: rows.filter((p) => !p.scenarioId).map((p) => p.environmentVersionId) } },
        select: { id: true, version: true },
      })
    ).map((v) => [v.id, v.version]),
  );
  return rows.map((p) => ({
    kind: "repair" as const,
    id: p.id,
    title: `Repair: ${shortTitle(p.summary, 120)}`,
    detail: `${p.environment.name}${p.scenario ? ` · ${p.scenario.externalId}` : ` · code v${versions.get(p.environmentVersionId) ?? "?"}`} · proven · by ${p.model}`,
    status: p.status,
    domain: p.environment.domain,
    reasons: [],
    runId: p.runId,
    environmentId: p.environmentId,
    seen: { kind: "repair" as const },
    href: p.scenarioId ? `/scenarios/${p.scenarioId}` : `/environments/${p.environmentId}/quality`,
    editHref: p.scenarioId ? `/scenarios/${p.scenarioId}` : `/environments/${p.environmentId}/edit`,
    risks: [],
    changed: null,
  }));
}

/** A proof's status and reasons, then its validator strength (what a weak-validator repair changes). */
const proofView = (value: unknown) => {
  const proof = ProofOutcomeSchema.safeParse(value);
  if (!proof.success) return null;
  const strength = strengthOf(
    proof.data.nearMiss,
    proof.data.gold.calls,
    proof.data.sensitivity.checks.length,
  );
  const strengthLines =
    strength.status === "MEASURED"
      ? [
          `validator strength: ${strengthLabel(strength)}`,
          ...strength.passed.map(
            (p) => `weak validator: the near-miss that ${p.description} earns full reward`,
          ),
        ]
      : [];
  return {
    status: proof.data.status,
    reasons: [...proof.data.reasons.map((r) => reasonSentence(r)), ...strengthLines],
  };
};

const checksText = (changes: { position: number; item: string }[], code: (i: number) => string) =>
  changes.map((c, i) => `# check ${c.position + 1}: ${c.item}\n${code(i)}`).join("\n\n");

const short = (v: unknown) => {
  const text = JSON.stringify(v) ?? "null";
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** One probe as a line: the call, what it returned and changed, and the verdict with its rationale. */
const probeLine = (p: RerunProbe) =>
  `${p.toolName}(${short(p.arguments)}) [${p.kind}] → ${short(p.observation)}; state diff ${short(p.stateDiff)}; ${p.verdict === "CRASHED" ? "crashed" : `judge: ${p.verdict}`} — ${p.rationale}`;

type ProposalRow = NonNullable<Awaited<ReturnType<Db["repairProposal"]["findFirst"]>>>;

/** An environment-code repair: the source diff, the failed probes, and the probes and siblings after. */
async function environmentRepairPreview(db: Db, p: ProposalRow): Promise<QueuePreview> {
  const [change] = EnvironmentChangeSchema.array().catch([]).parse(p.changes);
  const base = await db.environmentVersion.findUnique({
    where: { id: p.environmentVersionId },
    select: { version: true },
  });
  const before = EnvironmentProofSchema.safeParse(p.proofBefore);
  const after = EnvironmentProofSchema.safeParse(p.proofAfter);
  const reasons = (Array.isArray(p.reasons) ? p.reasons : []).map(String);
  const afterView = after.success
    ? {
        status: p.status === "FAILED" ? "FAILED" : "PROVEN",
        reasons: [
          ...after.data.probes.map(probeLine),
          ...after.data.siblings.map(
            (s) =>
              `scenario ${s.name}: ${s.status === "VERIFIED" ? "still verified" : `fails — ${s.reasons.join("; ")}`}`,
          ),
          ...(after.data.siblings.length === 0 ? ["no verified sibling scenario to re-prove"] : []),
        ],
      }
    : null;
  return {
    proof: afterView ?? { status: p.status, reasons },
    quality: `${p.status === "FAILED" ? "Did not prove" : "Proven"} · ${p.summary}`,
    diff: change
      ? {
          label: `environment code v${base?.version ?? "?"} → proposed`,
          original: change.before,
          modified: change.after,
        }
      : null,
    comparison: {
      labels: { before: "Failed quality probes", after: "Re-run on the proposed code" },
      before: {
        status: "FAILED",
        reasons: before.success ? before.data.probes.map(probeLine) : [],
      },
      after: afterView,
    },
    description: p.summary || null,
    tools: change?.tools ?? [],
    code: null,
  };
}

export async function repairPreview(db: Db, projectId: string, id: string): Promise<QueuePreview> {
  const p = await db.repairProposal.findFirst({ where: { id, projectId } });
  if (!p) throw new AppError("NOT_FOUND", `There is no repair proposal with the id "${id}".`);
  if (p.kind === "ENVIRONMENT") return environmentRepairPreview(db, p);
  const changes = CheckChangesSchema.catch([]).parse(p.changes);
  const before = proofView(p.proofBefore) ?? { status: "FAILED", reasons: [] };
  const after = proofView(p.proofAfter);
  return {
    proof: after ?? {
      status: p.status,
      reasons: (Array.isArray(p.reasons) ? p.reasons : []).map(reasonSentence),
    },
    quality: `${p.status === "PROVEN" ? "Proven" : "Did not prove"} · ${p.summary}`,
    diff: changes.length
      ? {
          label: "current → proposed",
          original: checksText(changes, (i) => changes[i]?.before ?? ""),
          modified: checksText(changes, (i) => changes[i]?.after ?? ""),
        }
      : null,
    comparison: { before, after },
    description: p.summary || null,
    tools: [],
    code: null,
  };
}

import "server-only";
/**
 * Repair proposals as review items: the queue lists the PROVEN ones nobody decided yet (a FAILED
 * one is kept as evidence, never offered), and the preview pane shows the current → proposed code
 * and the proofs of both side by side.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { reasonSentence, shortTitle } from "@/lib/review/queue-text";
import type { QueueItem, QueuePreview } from "@/lib/review/review.schema";
import { strengthLabel, strengthOf } from "@/lib/scenarios/near-miss-strength";
import { ProofOutcomeSchema } from "@/lib/scenarios/scenario.schema";
import { CheckChangesSchema } from "../repair.schema";

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
  return rows.map((p) => ({
    kind: "repair" as const,
    id: p.id,
    title: `Repair: ${shortTitle(p.summary, 120)}`,
    detail: `${p.environment.name}${p.scenario ? ` · ${p.scenario.externalId}` : ""} · proven · by ${p.model}`,
    status: p.status,
    domain: p.environment.domain,
    reasons: [],
    runId: p.runId,
    environmentId: p.environmentId,
    seen: { kind: "repair" as const },
    href: p.scenarioId ? `/scenarios/${p.scenarioId}` : `/environments/${p.environmentId}`,
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

export async function repairPreview(db: Db, projectId: string, id: string): Promise<QueuePreview> {
  const p = await db.repairProposal.findFirst({ where: { id, projectId } });
  if (!p) throw new AppError("NOT_FOUND", `There is no repair proposal with the id "${id}".`);
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

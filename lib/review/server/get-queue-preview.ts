import "server-only";
/**
 * What the queue's preview pane shows next to the list for one item: the proof (status and
 * reasons as sentences), the quality summary, the code diff worth reading (accepted → current
 * when the item changed since acceptance, otherwise the last edit), and what the item is — an
 * environment's description, tool schemas and source, a scenario's task and checks — so an item
 * with nothing to diff against can still be judged from the queue.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { repairPreview } from "@/lib/repair/server/find-repair-items";
import { parseTools } from "@/lib/environments/environment.schema";
import { idList } from "../acceptance";
import { qualitySummary } from "../quality-summary";
import { reasonSentence } from "../queue-text";
import type { ClaimInput, QueuePreview } from "../review.schema";

const reasons = (v: unknown) => (Array.isArray(v) ? v.map(reasonSentence) : []);

async function environmentPreview(db: Db, projectId: string, id: string): Promise<QueuePreview> {
  const env = await db.environment.findFirst({ where: { id, projectId }, include: { currentVersion: true } });
  if (!env?.currentVersion) throw new AppError("NOT_FOUND", "Environment was not found.");
  const current = env.currentVersion;
  const check = await db.qualityCheck.findFirst({
    where: { environmentVersionId: current.id },
    orderBy: { createdAt: "desc" },
    include: { probes: true },
  });
  const fromId =
    env.acceptedVersionId && env.acceptedVersionId !== current.id
      ? env.acceptedVersionId
      : current.parentVersionId;
  const from = fromId ? await db.environmentVersion.findUnique({ where: { id: fromId } }) : null;
  const label = from
    ? `v${from.version}${fromId === env.acceptedVersionId ? " (accepted)" : ""} → v${current.version}`
    : "";
  return {
    proof: null,
    quality: check ? qualitySummary(check).text : "No quality check on this version.",
    diff: from ? { label, original: from.source, modified: current.source } : null,
    comparison: null,
    description: env.description || null,
    tools: parseTools(current.tools),
    code: {
      label: `Code of v${current.version} (${current.className}); no earlier version to compare with`,
      source: current.source,
    },
  };
}

async function checksText(db: Db, ids: string[]): Promise<string> {
  const rows = await db.validatorVersion.findMany({
    where: { id: { in: ids } },
    select: { id: true, code: true, validator: { select: { position: true, checkItem: true } } },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r) => r !== undefined)
    .map((r) => `# check ${r.validator.position + 1}: ${r.validator.checkItem}\n${r.code}`)
    .join("\n\n");
}

async function scenarioPreview(db: Db, projectId: string, id: string): Promise<QueuePreview> {
  const s = await db.scenario.findFirst({
    where: { id, environment: { projectId } },
    include: { validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } } },
  });
  if (!s) throw new AppError("NOT_FOUND", "Scenario was not found.");
  const current = s.validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : []));
  const accepted = idList(s.acceptedValidatorVersionIds);
  const changed = accepted !== null && accepted.join() !== current.join();
  const diff = changed
    ? {
        label: "checks as accepted → now",
        original: await checksText(db, accepted),
        modified: await checksText(db, current),
      }
    : null;
  const checks = current.length ? await checksText(db, current) : "";
  return {
    proof: { status: s.proofStatus, reasons: reasons(s.proofReasons) },
    quality: null,
    diff,
    comparison: null,
    description: s.task,
    tools: [],
    code: checks ? { label: `Checks (${current.length})`, source: checks } : null,
  };
}

async function trajectoryPreview(db: Db, projectId: string, id: string): Promise<QueuePreview> {
  const t = await db.trajectory.findFirst({
    where: { id, scenario: { environment: { projectId } } },
    include: { scenario: true },
  });
  if (!t) throw new AppError("NOT_FOUND", "Trajectory was not found.");
  return {
    proof: { status: t.scenario.proofStatus, reasons: reasons(t.scenario.proofReasons) },
    quality: `Reward ${t.reward.toFixed(2)} after ${t.stepCount} steps (${t.status.toLowerCase()}).`,
    diff: null,
    comparison: null,
    description: t.scenario.task,
    tools: [],
    code: null,
  };
}

export function getQueuePreview(db: Db, projectId: string, item: ClaimInput): Promise<QueuePreview> {
  if (item.kind === "environment") return environmentPreview(db, projectId, item.id);
  if (item.kind === "scenario") return scenarioPreview(db, projectId, item.id);
  if (item.kind === "repair") return repairPreview(db, projectId, item.id);
  return trajectoryPreview(db, projectId, item.id);
}

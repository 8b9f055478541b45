import "server-only";
import { collidingNames, distinctName } from "@/lib/environments/name-collisions";
/**
 * Everything waiting for a human, in one list: environments IN_REVIEW (after the quality check),
 * scenarios not yet VERIFIED/ACCEPTED/REJECTED (with the proof's reasons), flagged trajectories
 * and proven repair proposals nobody has decided on. Items claimed by another reviewer are left out, so two
 * reviewers paging the same queue never land on the same item.
 */
import type { Db, Prisma } from "@/lib/db";
import { pinnedProofStatus, proofRowOf } from "@/lib/scenarios/proof-status";
import type { QueueFilter, QueueItem, ReviewKind } from "../review.schema";
import { reasonSentence, shortTitle } from "../queue-text";
import { findRepairQueueItems, repairQueueWhere } from "@/lib/repair/server/find-repair-items";
import { proofRisks, qualityRisks } from "./accept-risks";
import { containsText } from "@/lib/core/contains-text";

export type { QueueItem } from "../review.schema";

export type ReviewQueue = {
  items: QueueItem[];
  counts: Record<ReviewKind, number>;
  /** Items matching the whole filter (kind and status included), loaded or not. */
  matching: number;
  claimedByOthers: number;
  decidedToday: { mine: number; all: number };
  facets: { domains: string[]; flagReasons: string[]; runs: { id: string; name: string }[] };
};

const LIMIT = 200;
const SCENARIO_WAITING = ["DRAFT", "IN_REVIEW"] as const;
const reasonsOf = (v: unknown) => (Array.isArray(v) ? v.map(reasonSentence) : []);

/**
 * The filter as a where clause per kind, and which kinds it can match at all: the queue page and
 * the bulk decisions' "every item matching the filter" read the same rows.
 */
export function queueWhere(projectId: string, filter: QueueFilter) {
  const want = (k: ReviewKind) => !filter.kind || filter.kind === k;
  const q = filter.q ? containsText(filter.q) : null;
  const scenarioSearch: Prisma.ScenarioWhereInput = q
    ? {
        OR: [{ task: q }, { externalId: q }, { environment: { name: q } }, { environment: { slug: q } }],
      }
    : {};
  const envWhere: Prisma.EnvironmentWhereInput = {
    projectId,
    status: "IN_REVIEW",
    archivedAt: null,
    ...(q ? { OR: [{ name: q }, { slug: q }] } : {}),
    ...(filter.domain ? { domain: filter.domain } : {}),
    ...(filter.runId ? { runId: filter.runId } : {}),
  };
  const scenarioWhere: Prisma.ScenarioWhereInput = {
    ...scenarioSearch,
    environment: {
      projectId,
      archivedAt: null,
      ...(filter.domain ? { domain: filter.domain } : {}),
      ...(filter.runId ? { runId: filter.runId } : {}),
    },
    status:
      filter.status && (SCENARIO_WAITING as readonly string[]).includes(filter.status)
        ? (filter.status as "DRAFT")
        : { in: [...SCENARIO_WAITING] },
  };
  const tw: Prisma.TrajectoryWhereInput = {
    flagReason: filter.flagReason ? filter.flagReason : { not: null },
    reviewDecision: null,
    scenario: {
      ...scenarioSearch,
      environment: { projectId, ...(filter.domain ? { domain: filter.domain } : {}) },
    },
    ...(filter.runId ? { runId: filter.runId } : {}),
  };
  const statusFilterFor = (k: ReviewKind) =>
    !filter.status ||
    (k === "environment"
      ? filter.status === "IN_REVIEW"
      : k === "scenario"
        ? (SCENARIO_WAITING as readonly string[]).includes(filter.status)
        : false);
  const wants = {
    environment: want("environment") && statusFilterFor("environment") && !filter.flagReason,
    scenario: want("scenario") && statusFilterFor("scenario") && !filter.flagReason,
    trajectory: want("trajectory") && (!filter.status || filter.status === "FLAGGED"),
    repair: want("repair") && (!filter.status || filter.status === "PROVEN") && !filter.flagReason && !q,
  };
  return { envWhere, scenarioWhere, tw, wants, q, repairWhere: repairQueueWhere(projectId, filter) };
}

/**
 * Each kind's order for the table's sort, ties broken by the queue's order (oldest first). Repair
 * proposals keep their own order; "kind" only interleaves the loaded rows (the page sorts them).
 */
function queueOrder(filter: QueueFilter) {
  const dir = filter.dir ?? "asc";
  const by = filter.sort;
  const environment: Prisma.EnvironmentOrderByWithRelationInput[] = [
    ...(by === "title" ? [{ name: dir }] : by === "domain" ? [{ domain: dir }] : []),
    ...(by === "status" ? [{ status: dir }] : []),
    { updatedAt: "asc" },
  ];
  const scenario: Prisma.ScenarioOrderByWithRelationInput[] = [
    ...(by === "title" ? [{ task: dir }] : by === "domain" ? [{ environment: { domain: dir } }] : []),
    ...(by === "status" ? [{ status: dir }] : []),
    { createdAt: "asc" },
  ];
  const trajectory: Prisma.TrajectoryOrderByWithRelationInput[] = [
    ...(by === "title"
      ? [{ scenario: { environment: { name: dir } } }, { scenario: { externalId: dir } }]
      : by === "domain"
        ? [{ scenario: { environment: { domain: dir } } }]
        : []),
    { createdAt: "asc" },
  ];
  return { environment, scenario, trajectory };
}

export async function findReviewQueue(
  db: Db,
  projectId: string,
  filter: QueueFilter,
  me: { id: string | null },
  now = new Date(),
): Promise<ReviewQueue> {
  const claims = await db.reviewClaim.findMany({
    where: { expiresAt: { gt: now }, ...(me.id ? { userId: { not: me.id } } : {}) },
    select: { targetId: true },
  });
  const taken = claims.map((c) => c.targetId);
  const { envWhere, scenarioWhere, tw, wants, q, repairWhere } = queueWhere(projectId, filter);
  const order = queueOrder(filter);
  const [envs, scenarios, trajectories, envCount, scenarioCount, trajCount] = await Promise.all([
    wants.environment
      ? db.environment.findMany({
          where: { ...envWhere, id: { notIn: taken } },
          orderBy: order.environment,
          take: LIMIT,
          include: { run: { select: { name: true } }, currentVersion: { select: { version: true } } },
        })
      : [],
    wants.scenario
      ? db.scenario.findMany({
          where: { ...scenarioWhere, id: { notIn: taken } },
          orderBy: order.scenario,
          take: LIMIT,
          include: {
            environment: {
              select: { name: true, slug: true, domain: true, runId: true, currentVersionId: true },
            },
            validators: { orderBy: { position: "asc" }, select: { currentVersionId: true } },
            proofs: {
              orderBy: { createdAt: "desc" },
              select: { environmentVersionId: true, validatorVersionIds: true, status: true },
            },
          },
        })
      : [],
    wants.trajectory
      ? db.trajectory.findMany({
          where: { ...tw, id: { notIn: taken } },
          orderBy: order.trajectory,
          take: LIMIT,
          include: {
            scenario: {
              select: {
                externalId: true,
                environmentId: true,
                environment: { select: { domain: true, name: true, slug: true } },
              },
            },
          },
        })
      : [],
    db.environment.count({ where: envWhere }),
    db.scenario.count({ where: scenarioWhere }),
    db.trajectory.count({ where: tw }),
  ]);
  const wantRepairs = wants.repair;
  const [repairs, repairCount, repairsHeld] = await Promise.all([
    wantRepairs
      ? findRepairQueueItems(db, projectId, { taken, domain: filter.domain, runId: filter.runId })
      : [],
    q ? 0 : db.repairProposal.count({ where: repairWhere }),
    wantRepairs ? db.repairProposal.count({ where: { ...repairWhere, id: { in: taken } } }) : 0,
  ]);
  const envFacts = await environmentFacts(db, envs);
  // Held by others *within this view*: the counter sits beside the filtered queue's own counts.
  const heldHere = await Promise.all([
    wants.environment ? db.environment.count({ where: { ...envWhere, id: { in: taken } } }) : 0,
    wants.scenario ? db.scenario.count({ where: { ...scenarioWhere, id: { in: taken } } }) : 0,
    wants.trajectory ? db.trajectory.count({ where: { ...tw, id: { in: taken } } }) : 0,
  ]);
  // Environments that share a name show their env_id in this list.
  const clash = collidingNames([
    ...envs,
    ...scenarios.map((s) => ({ id: s.environmentId, name: s.environment.name })),
    ...trajectories.map((t) => ({ id: t.scenario.environmentId, name: t.scenario.environment.name })),
  ]);
  const items: QueueItem[] = [
    ...envs.map((e) => ({
      kind: "environment" as const,
      id: e.id,
      title: distinctName(e, clash),
      detail: `${e.toolCount} tools${e.run ? ` · run ${e.run.name}` : ""}`,
      status: e.status,
      domain: e.domain,
      reasons: [],
      runId: e.runId,
      environmentId: e.id,
      seen: { kind: "environment" as const, versionId: e.currentVersionId ?? "" },
      href: `/environments/${e.id}/quality`,
      editHref: `/environments/${e.id}/edit`,
      risks: envFacts.risks.get(e.id) ?? [],
      changed: envFacts.changed.get(e.id) ?? null,
    })),
    ...scenarios.map((s) => ({
      kind: "scenario" as const,
      id: s.id,
      title: shortTitle(s.task),
      detail: `${distinctName(s.environment, clash)} · ${s.externalId} · proof ${proofOf(s).toLowerCase()}`,
      status: s.status,
      domain: s.environment.domain,
      reasons: reasonsOf(s.proofReasons),
      runId: s.environment.runId,
      environmentId: s.environmentId,
      seen: { kind: "scenario" as const, ...pinsOf(s) },
      href: `/scenarios/${s.id}`,
      editHref: `/scenarios/${s.id}`,
      risks: proofRisks(proofOf(s)),
      changed:
        s.acceptedValidatorVersionIds !== null
          ? {
              text: "changed since accepted: its checks or proof changed after a reviewer accepted it",
              href: `/scenarios/${s.id}`,
            }
          : null,
    })),
    ...trajectories.map((t) => ({
      kind: "trajectory" as const,
      id: t.id,
      title: `${distinctName(t.scenario.environment, clash)} · ${t.scenario.externalId} · ${t.model}`,
      detail: `reward ${t.reward.toFixed(2)} · ${t.stepCount} steps`,
      status: "FLAGGED",
      domain: t.scenario.environment.domain,
      reasons: t.flagReason ? [reasonSentence(t.flagReason)] : [],
      runId: t.runId,
      environmentId: t.scenario.environmentId,
      seen: { kind: "trajectory" as const },
      href: `/scenarios/${t.scenarioId}?trajectory=${t.id}`,
      editHref: `/scenarios/${t.scenarioId}?trajectory=${t.id}`,
      risks: [],
      changed: null,
    })),
    ...repairs,
  ];
  return {
    items,
    counts: { environment: envCount, scenario: scenarioCount, trajectory: trajCount, repair: repairCount },
    matching:
      (wants.environment ? envCount : 0) +
      (wants.scenario ? scenarioCount : 0) +
      (wants.trajectory ? trajCount : 0) +
      (wantRepairs ? repairCount : 0),
    claimedByOthers: heldHere.reduce((a, b) => a + b, repairsHeld),
    decidedToday: await decidedToday(db, projectId, me.id, now),
    facets: await facets(db, projectId),
  };
}

type ScenarioRow = {
  environment: { currentVersionId: string | null };
  validators: { currentVersionId: string | null }[];
  proofs: { environmentVersionId: string; validatorVersionIds: unknown; status: string }[];
};

/** The versions a reviewer sees on a scenario: its environment's current code and current checks. */
const pinsOf = (s: ScenarioRow) => ({
  environmentVersionId: s.environment.currentVersionId ?? "",
  validatorVersionIds: s.validators.flatMap((v) => (v.currentVersionId ? [v.currentVersionId] : [])),
});

/** The proof status of exactly those versions (what decideItem enforces). */
const proofOf = (s: ScenarioRow) => pinnedProofStatus(s.proofs.map(proofRowOf), pinsOf(s));

/** Trajectories whose latest accept/reject was not undone: the log is their review state. */
type EnvRow = {
  id: string;
  currentVersionId: string | null;
  acceptedVersionId: string | null;
  currentVersion: { version: number } | null;
};

/** Per environment: why accepting needs an override (quality), and "changed since accepted vN". */
async function environmentFacts(db: Db, envs: EnvRow[]) {
  const current = envs.flatMap((e) => (e.currentVersionId ? [e.currentVersionId] : []));
  const [checks, accepted] = await Promise.all([
    db.qualityCheck.findMany({
      where: { environmentVersionId: { in: current } },
      orderBy: { createdAt: "desc" },
      select: {
        environmentVersionId: true,
        threshold: true,
        probes: { select: { verdict: true, reviewerVerdict: true } },
      },
    }),
    db.environmentVersion.findMany({
      where: { id: { in: envs.flatMap((e) => (e.acceptedVersionId ? [e.acceptedVersionId] : [])) } },
      select: { id: true, version: true },
    }),
  ]);
  const acceptedNumber = new Map(accepted.map((v) => [v.id, v.version]));
  const risks = new Map<string, string[]>();
  const changed = new Map<string, { text: string; href: string }>();
  for (const e of envs) {
    risks.set(e.id, qualityRisks(checks.find((c) => c.environmentVersionId === e.currentVersionId)));
    const from = e.acceptedVersionId ? acceptedNumber.get(e.acceptedVersionId) : undefined;
    if (from !== undefined && e.acceptedVersionId !== e.currentVersionId && e.currentVersion) {
      changed.set(e.id, {
        text: `changed since accepted: v${from} was accepted, the code is now v${e.currentVersion.version}`,
        href: `/environments/${e.id}/versions?a=${from}&b=${e.currentVersion.version}`,
      });
    }
  }
  return { risks, changed };
}

async function decidedToday(db: Db, projectId: string, meId: string | null, now: Date) {
  const since = new Date(now);
  since.setUTCHours(0, 0, 0, 0);
  const where = {
    projectId,
    createdAt: { gte: since },
    decision: { in: ["ACCEPT", "REJECT"] as ("ACCEPT" | "REJECT")[] },
  };
  const [all, mine] = await Promise.all([
    db.reviewDecision.count({ where }),
    meId ? db.reviewDecision.count({ where: { ...where, actorId: meId } }) : 0,
  ]);
  return { all, mine };
}

/** Grouped in SQL: Prisma's `distinct` reads every row and de-duplicates in the process. */
async function facets(db: Db, projectId: string) {
  const [domains, flags, runs] = await Promise.all([
    db.environment.groupBy({ by: ["domain"], where: { projectId }, orderBy: { domain: "asc" } }),
    db.trajectory.groupBy({
      by: ["flagReason"],
      where: { flagReason: { not: null }, scenario: { environment: { projectId } } },
      orderBy: { flagReason: "asc" },
      take: 50,
    }),
    db.pipelineRun.findMany({
      where: { projectId },
      orderBy: { createdAt: "desc" },
      take: 50,
      select: { id: true, name: true, kind: true },
    }),
  ]);
  return {
    domains: domains.map((d) => d.domain),
    flagReasons: flags.map((f) => f.flagReason).filter((f): f is string => !!f),
    runs: runs.map((r) => ({ id: r.id, name: r.name || r.kind })),
  };
}

import "server-only";
/**
 * Writes an ImportPlan in one transaction: every environment, version, scenario and validator, or
 * nothing. A slug that already exists in the project is a located conflict, never an overwrite,
 * unless the importer chose what to do: import under a new slug, or as a new version of the
 * existing environment (which then goes back to review like an edit). Everything lands in review
 * with its proof pending, whatever the files claim about themselves: review status comes from
 * decisions recorded in this studio, proof from this studio's sandbox.
 */
import type { Db, Prisma } from "@/lib/db";
import { sha256, taskHash } from "@/lib/environments/hash";
import { markEnvironmentProofsStale } from "@/lib/scenarios/server/mark-proofs-stale";
import type { ImportPlan, ImportedEnvironment, OnExisting } from "../import.schema";
import { writeEnvironmentSignature } from "@/lib/corpus/server/write-environment-signature";

export class ImportConflictError extends Error {
  constructor(readonly slug: string) {
    super(
      `environment "${slug}" already exists in this project: import it under a new name or as a new version of "${slug}"`,
    );
  }
}

type Tx = Prisma.TransactionClient;
const json = (v: unknown) => (v ?? null) as Prisma.InputJsonValue;

type PlanEnv = ImportPlan["environments"][number];
type Written = { environmentId: string; versionId: string; imported: ImportedEnvironment };

async function freeSlug(tx: Tx, projectId: string, slug: string): Promise<string> {
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (
      !(await tx.environment.findUnique({
        where: { projectId_slug: { projectId, slug: candidate } },
        select: { id: true },
      }))
    )
      return candidate;
  }
}

/** The imported code becomes the next version; an accepted environment remembers what was accepted. */
async function appendVersion(
  tx: Tx,
  existing: { id: string; status: string; currentVersionId: string | null; acceptedVersionId: string | null },
  env: PlanEnv,
): Promise<Written> {
  const latest = await tx.environmentVersion.aggregate({
    where: { environmentId: existing.id },
    _max: { version: true },
  });
  const version = await tx.environmentVersion.create({
    data: {
      environmentId: existing.id,
      version: (latest._max.version ?? 0) + 1,
      className: env.className,
      source: env.source,
      sourceHash: sha256(env.source),
      tools: json(env.tools),
      stateSchema: json(env.stateSchema),
      rules: json(env.rules),
      operations: json(env.operations),
      metadata: json(env.metadata),
      producedBy: "import",
      message: "Imported as a new version",
      parentVersionId: existing.currentVersionId,
    },
  });
  await writeEnvironmentSignature(tx, version);
  const accepted =
    existing.status === "ACCEPTED"
      ? existing.currentVersionId
      : existing.status === "REJECTED"
        ? null
        : existing.acceptedVersionId;
  await tx.environment.update({
    where: { id: existing.id },
    data: {
      currentVersionId: version.id,
      toolCount: env.tools.length,
      status: "IN_REVIEW",
      acceptedVersionId: accepted,
    },
  });
  // The kept scenarios' proofs were made on the replaced code: stale from the moment it is.
  await markEnvironmentProofsStale(tx, existing.id);
  return {
    environmentId: existing.id,
    versionId: version.id,
    imported: { slug: env.slug, id: existing.id, version: version.version, asNewVersion: true },
  };
}

async function writeEnvironment(
  tx: Tx,
  projectId: string,
  env: PlanEnv,
  onExisting: OnExisting,
): Promise<Written> {
  const existing = await tx.environment.findUnique({
    where: { projectId_slug: { projectId, slug: env.slug } },
  });
  if (existing && onExisting === "refuse") throw new ImportConflictError(env.slug);
  if (existing && onExisting === "new-version") return appendVersion(tx, existing, env);
  const slug = existing ? await freeSlug(tx, projectId, env.slug) : env.slug;
  const created = await tx.environment.create({
    data: {
      projectId,
      slug,
      name: env.name,
      description: env.description,
      domain: env.domain,
      status: "IN_REVIEW",
      origin: "IMPORT",
      toolCount: env.tools.length,
    },
  });
  const version = await tx.environmentVersion.create({
    data: {
      environmentId: created.id,
      version: env.version,
      className: env.className,
      source: env.source,
      sourceHash: sha256(env.source),
      tools: json(env.tools),
      stateSchema: json(env.stateSchema),
      rules: json(env.rules),
      operations: json(env.operations),
      metadata: json(env.metadata),
      producedBy: "import",
      message: "Imported",
    },
  });
  await writeEnvironmentSignature(tx, version);
  await tx.environment.update({ where: { id: created.id }, data: { currentVersionId: version.id } });
  return {
    environmentId: created.id,
    versionId: version.id,
    imported: { slug, id: created.id, version: version.version, asNewVersion: false },
  };
}

async function writeScenario(
  tx: Tx,
  env: { environmentId: string; versionId: string },
  s: ImportPlan["scenarios"][number],
): Promise<string | null> {
  // A new version keeps the environment's scenarios; only scenarios it does not have yet are added.
  if (
    await tx.scenario.findUnique({
      where: { environmentId_externalId: { environmentId: env.environmentId, externalId: s.externalId } },
      select: { id: true },
    })
  )
    return null;
  const row = await tx.scenario.create({
    data: {
      environmentId: env.environmentId,
      environmentVersionId: env.versionId,
      externalId: s.externalId,
      initialState: json(s.initialState),
      task: s.task,
      taskHash: taskHash(s.task),
      checklist: json(s.checklist),
      goldCalls: s.goldCalls === null ? undefined : json(s.goldCalls),
      status: "IN_REVIEW",
      proofStatus: "PENDING",
      origin: "IMPORT",
    },
  });
  for (const [position, check] of s.checks.entries()) {
    const validator = await tx.validator.create({
      data: { scenarioId: row.id, position, checkItem: check.checkItem },
    });
    const version = await tx.validatorVersion.create({
      data: {
        validatorId: validator.id,
        version: check.version,
        code: check.code,
        checkItem: check.checkItem,
        producedBy: "import",
        message: "Imported",
      },
    });
    await tx.validator.update({ where: { id: validator.id }, data: { currentVersionId: version.id } });
  }
  return row.id;
}

export async function writeImportPlan(
  db: Db,
  projectId: string,
  plan: ImportPlan,
  onExisting: OnExisting = "refuse",
) {
  return db.$transaction(
    async (tx) => {
      const envs = new Map<string, Written>();
      for (const env of plan.environments)
        envs.set(env.slug, await writeEnvironment(tx, projectId, env, onExisting));
      const scenarioIds: string[] = [];
      for (const s of plan.scenarios) {
        const env = envs.get(s.envSlug);
        const id = env ? await writeScenario(tx, env, s) : null;
        if (id) scenarioIds.push(id);
      }
      const imported = [...envs.values()].map((w) => w.imported);
      return { environments: imported.map((i) => i.slug), scenarioIds, imported };
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
}

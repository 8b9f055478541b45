/**
 * Writes an ImportPlan in one transaction: every environment, version, scenario and validator, or
 * nothing. A slug that already exists in the project is a located conflict, not an overwrite.
 * Everything lands in review with its proof pending, whatever the files claim about themselves:
 * review status comes from decisions recorded in this studio, proof from this studio's sandbox.
 */
import type { Db, Prisma } from "@/lib/db";
import { sha256, taskHash } from "@/lib/environments/hash";
import type { ImportPlan } from "../import.schema";

export class ImportConflictError extends Error {
  constructor(readonly slug: string) {
    super(`environment "${slug}" already exists in this project; rename it (env_id) or import into another project`);
  }
}

type Tx = Prisma.TransactionClient;
const json = (v: unknown) => (v ?? null) as Prisma.InputJsonValue;

async function writeEnvironment(tx: Tx, projectId: string, env: ImportPlan["environments"][number]) {
  if (await tx.environment.findUnique({ where: { projectId_slug: { projectId, slug: env.slug } } })) throw new ImportConflictError(env.slug);
  const created = await tx.environment.create({
    data: { projectId, slug: env.slug, name: env.name, description: env.description, domain: env.domain, status: "IN_REVIEW", origin: "IMPORT", toolCount: env.tools.length },
  });
  const version = await tx.environmentVersion.create({
    data: {
      environmentId: created.id, version: env.version, className: env.className, source: env.source, sourceHash: sha256(env.source),
      tools: json(env.tools), stateSchema: json(env.stateSchema), rules: json(env.rules), operations: json(env.operations), metadata: json(env.metadata),
      producedBy: "import", message: "Imported",
    },
  });
  await tx.environment.update({ where: { id: created.id }, data: { currentVersionId: version.id } });
  return { environmentId: created.id, versionId: version.id };
}

async function writeScenario(tx: Tx, env: { environmentId: string; versionId: string }, s: ImportPlan["scenarios"][number]): Promise<string> {
  const row = await tx.scenario.create({
    data: {
      environmentId: env.environmentId, environmentVersionId: env.versionId, externalId: s.externalId, initialState: json(s.initialState),
      task: s.task, taskHash: taskHash(s.task), checklist: json(s.checklist), goldCalls: s.goldCalls === null ? undefined : json(s.goldCalls),
      status: "IN_REVIEW", proofStatus: "PENDING", origin: "IMPORT",
    },
  });
  for (const [position, check] of s.checks.entries()) {
    const validator = await tx.validator.create({ data: { scenarioId: row.id, position, checkItem: check.checkItem } });
    const version = await tx.validatorVersion.create({ data: { validatorId: validator.id, version: check.version, code: check.code, producedBy: "import", message: "Imported" } });
    await tx.validator.update({ where: { id: validator.id }, data: { currentVersionId: version.id } });
  }
  return row.id;
}

export async function writeImportPlan(db: Db, projectId: string, plan: ImportPlan) {
  return db.$transaction(
    async (tx) => {
      const envs = new Map<string, { environmentId: string; versionId: string }>();
      for (const env of plan.environments) envs.set(env.slug, await writeEnvironment(tx, projectId, env));
      const scenarioIds: string[] = [];
      for (const s of plan.scenarios) {
        const env = envs.get(s.envSlug);
        if (env) scenarioIds.push(await writeScenario(tx, env, s));
      }
      return { environments: plan.environments.map((e) => e.slug), scenarioIds };
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
}

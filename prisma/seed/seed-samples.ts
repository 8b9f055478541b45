/**
 * Writes the hand-written sample environments (prisma/seed/samples) into a project. Idempotent:
 * a sample whose slug already exists in the project is left alone, so a restart never duplicates
 * or overwrites anything a reviewer changed.
 */
import type { Db, Prisma } from "../../lib/db";
import { sha256, taskHash } from "../../lib/environments/hash";
import type { Sample } from "./load-samples";
import { writeEnvironmentSignature } from "../../lib/corpus/server/write-environment-signature";

export type ToolsFor = (sample: Sample) => Promise<unknown[]>;

export async function seedSamples(
  db: Db,
  opts: { projectId: string; samples: Sample[]; toolsFor: ToolsFor },
) {
  const created: string[] = [];
  for (const sample of opts.samples) {
    const exists = await db.environment.findUnique({
      where: { projectId_slug: { projectId: opts.projectId, slug: sample.slug } },
    });
    if (exists) continue;
    const tools = await opts.toolsFor(sample);
    await db.$transaction((tx) => writeSample(tx, opts.projectId, sample, tools));
    created.push(sample.slug);
  }
  return created;
}

async function writeSample(
  tx: Prisma.TransactionClient,
  projectId: string,
  sample: Sample,
  tools: unknown[],
) {
  const { meta } = sample;
  const env = await tx.environment.create({
    data: {
      projectId,
      slug: sample.slug,
      name: meta.environment_summary,
      description: meta.environment_introduction,
      domain: meta.domain,
      status: "ACCEPTED",
      origin: "SAMPLE",
      toolCount: tools.length,
    },
  });
  const version = await tx.environmentVersion.create({
    data: {
      environmentId: env.id,
      version: 1,
      className: meta.env_class_name,
      source: sample.source,
      sourceHash: sha256(sample.source),
      tools: tools as Prisma.InputJsonValue,
      stateSchema: meta.state_space_definition,
      rules: meta.constraints_rules,
      operations: meta.operation_list,
      metadata: { env_id: meta.env_id, sample: true },
      producedBy: "sample",
      message: "Hand-written sample environment",
    },
  });
  await writeEnvironmentSignature(tx, version);
  await tx.environment.update({ where: { id: env.id }, data: { currentVersionId: version.id } });
  for (const scenario of sample.scenarios) {
    const row = await tx.scenario.create({
      data: {
        environmentId: env.id,
        environmentVersionId: version.id,
        externalId: scenario.task_id,
        initialState: scenario.init_config as Prisma.InputJsonValue,
        task: scenario.task,
        taskHash: taskHash(scenario.task),
        checklist: scenario.checklist,
        goldCalls: (scenario.gold_calls ?? undefined) as Prisma.InputJsonValue | undefined,
        status: "ACCEPTED",
        origin: "SAMPLE",
      },
    });
    for (const [position, item] of scenario.checklist_with_func.entries()) {
      const validator = await tx.validator.create({
        data: { scenarioId: row.id, position, checkItem: item.check_item },
      });
      const v1 = await tx.validatorVersion.create({
        data: {
          validatorId: validator.id,
          version: 1,
          code: item.check_func,
          checkItem: item.check_item,
          producedBy: "sample",
          message: "Hand-written",
        },
      });
      await tx.validator.update({ where: { id: validator.id }, data: { currentVersionId: v1.id } });
    }
  }
}

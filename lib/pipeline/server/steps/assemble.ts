import "server-only";
/**
 * Assemble: the state class and its methods as one environment class. The commit stores it as the
 * environment's next version and moves the environment to CHECKING.
 */
import type { Prisma } from "@/lib/db";
import { sha256 } from "@/lib/environments/hash";
import {
  type Assembled,
  MethodsSchema,
  OperationsSchema,
  StateCodeSchema,
  StateSpaceSchema,
} from "../../pipeline.schema";
import { assembleClass } from "../../stages/assemble-class";
import { type CommitContext, chainCompute, defineStage } from "../stage-spec";
import { need } from "../step-inputs";
import { domainLabel } from "../../naming";
import { writeEnvironmentSignature } from "@/lib/corpus/server/write-environment-signature";

async function commitAssemble({ tx, step, earlier }: CommitContext, output: unknown) {
  if (!step.environmentId) return;
  const assembled = output as Assembled;
  const state = StateSpaceSchema.safeParse(earlier.get("state"));
  const operations = OperationsSchema.safeParse(earlier.get("operations")).data?.operations;
  const last = await tx.environmentVersion.findFirst({
    where: { environmentId: step.environmentId },
    orderBy: { version: "desc" },
  });
  const version = await tx.environmentVersion.create({
    data: {
      environmentId: step.environmentId,
      version: (last?.version ?? 0) + 1,
      className: assembled.className,
      source: assembled.source,
      sourceHash: sha256(assembled.source),
      tools: assembled.tools as Prisma.InputJsonValue,
      stateSchema: state.success ? state.data.entities : [],
      rules: state.success ? state.data.rules : [],
      operations: operations ?? [],
      producedBy: "pipeline",
      runId: step.runId,
      parentVersionId: last?.id ?? null,
      message: `SkelBuilder run ${step.runId}`,
    },
  });
  await writeEnvironmentSignature(tx, version);
  await tx.environment.update({
    where: { id: step.environmentId },
    data: { currentVersionId: version.id, toolCount: assembled.tools.length, status: "CHECKING" },
  });
  // A typed idea has no inferred topic: the domain the state stage named replaces "general".
  if (state.success && state.data.domain)
    await tx.environment.updateMany({
      where: { id: step.environmentId, domain: "general" },
      data: { domain: domainLabel(state.data.domain) },
    });
}

export const assembleStep = defineStage({
  compute: chainCompute(({ earlier }, { deps }) =>
    assembleClass(
      {
        stateCode: need(earlier, "state_code", StateCodeSchema),
        methods: need(earlier, "methods", MethodsSchema).methods,
        operations: need(earlier, "operations", OperationsSchema).operations,
      },
      deps,
    ),
  ),
  commit: commitAssemble,
  commitReadsEarlier: true,
});

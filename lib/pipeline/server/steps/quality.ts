import "server-only";
/**
 * Quality: a tester model probes the class and a judge grades each call. The commit stores the
 * check and its probes and sends the environment to review (passed) or FAILED.
 */
import type { Prisma } from "@/lib/db";
import {
  AssembledSchema,
  MethodsSchema,
  QualityOutputSchema,
  StateSpaceSchema,
  TestStateSchema,
} from "../../pipeline.schema";
import { runQualityCheck } from "../../stages/quality-check";
import { type CommitContext, chainCompute, defineStage } from "../stage-spec";
import { need } from "../step-inputs";

async function commitQuality({ tx, step, earlier }: CommitContext, output: unknown) {
  const q = QualityOutputSchema.parse(output);
  const initialState = TestStateSchema.safeParse(earlier.get("test_state")).data?.initialState;
  const env = step.environmentId
    ? await tx.environment.findUnique({ where: { id: step.environmentId } })
    : null;
  if (!env?.currentVersionId) return;
  const check = await tx.qualityCheck.create({
    data: {
      environmentVersionId: env.currentVersionId,
      runId: step.runId,
      testState: (initialState ?? {}) as Prisma.InputJsonValue,
      rounds: q.rounds,
      passCount: q.passCount,
      warningCount: q.warningCount,
      failCount: q.failCount,
      passRate: q.passRate,
      notFailRate: q.notFailRate,
      threshold: q.threshold,
      passed: q.passed,
    },
  });
  await tx.qualityProbe.createMany({
    data: q.probes.map((p, i) => ({
      qualityCheckId: check.id,
      index: i,
      kind: p.kind,
      toolName: p.toolName,
      arguments: p.arguments as Prisma.InputJsonValue,
      observation: (p.observation ?? null) as Prisma.InputJsonValue,
      stateDiff: (p.stateDiff ?? null) as Prisma.InputJsonValue,
      verdict: p.verdict,
      rationale: p.rationale,
    })),
  });
  // Passing environments go to human review, never straight to ACCEPTED.
  await tx.environment.update({ where: { id: env.id }, data: { status: q.passed ? "IN_REVIEW" : "FAILED" } });
}

export const qualityStep = defineStage({
  compute: chainCompute(({ topic, earlier }, { config, deps }) =>
    runQualityCheck(
      {
        topic,
        state: need(earlier, "state", StateSpaceSchema),
        assembled: need(earlier, "assemble", AssembledSchema),
        methods: need(earlier, "methods", MethodsSchema).methods,
        initialState: need(earlier, "test_state", TestStateSchema).initialState,
        rounds: config.qualityRounds,
        threshold: config.minNotFailRate,
      },
      deps,
    ),
  ),
  commit: commitQuality,
  commitReadsEarlier: true,
});

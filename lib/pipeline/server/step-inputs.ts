import "server-only";
/**
 * Reads what a step needs from the steps before it. Stored outputs are parsed again with their
 * schemas (never cast): a hand-edited or stale row fails loudly with the stage it came from.
 */
import type { z } from "zod";
import { formatZodIssues } from "@/lib/core/zod-issues";
import type { Db } from "@/lib/db";
import type { Stage } from "../pipeline.schema";

export class MissingInputError extends Error {}

export async function chainOutputs(db: Db, runId: string, subjectKey: string): Promise<Map<string, unknown>> {
  const rows = await db.pipelineStep.findMany({
    where: { runId, subjectKey, status: "SUCCEEDED" },
    select: { stage: true, output: true },
  });
  return new Map(rows.map((r) => [r.stage, r.output]));
}

export function need<S extends z.ZodType>(
  outputs: Map<string, unknown>,
  stage: Stage,
  schema: S,
): z.infer<S> {
  const parsed = schema.safeParse(outputs.get(stage));
  if (!parsed.success)
    throw new MissingInputError(
      `the ${stage} step has no usable output: ${formatZodIssues(parsed.error, { max: 1, withPath: false })}`,
    );
  return parsed.data;
}

import "server-only";
/**
 * What a SkelBuilder stage provides to the step runner: how to compute its output from the step's
 * input and earlier outputs, what its commit writes besides the step row, and which step follows.
 * Every stage is one entry of STAGE_TABLE (stage-table.ts), keyed by the Stage union, so a stage
 * without an entry, or an entry without `compute`, is a type error.
 */
import { z } from "zod";
import type { Result } from "@/lib/core/result";
import type { StepError } from "@/lib/core/run";
import type { Db, Prisma } from "@/lib/db";
import { type RunConfig, type Stage, TopicSchema } from "../pipeline.schema";
import type { StageDeps } from "../stages/deps";
import { chainOutputs } from "./step-inputs";

export type Tx = Prisma.TransactionClient;

export type StepRow = {
  id: string;
  runId: string;
  subjectKey: string;
  stage: string;
  input: unknown;
  environmentId: string | null;
};

export type ComputeContext = { db: Db; step: StepRow; config: RunConfig; deps: StageDeps };
export type CommitContext = {
  tx: Tx;
  run: { id: string; projectId: string };
  step: StepRow;
  /** The subject's earlier outputs by stage; filled only for stages with `commitReadsEarlier`. */
  earlier: Map<string, unknown>;
};

export type StageSpec = {
  /** Runs the pure stage with production deps. No writes: `commit` does them. */
  compute: (ctx: ComputeContext) => Promise<Result<unknown, StepError>>;
  /** Domain writes (topics, environments, code versions, checks) in the step's commit transaction. */
  commit?: (ctx: CommitContext, output: unknown) => Promise<void>;
  /** The commit reads the subject's earlier outputs (one query less for stages that do not). */
  commitReadsEarlier?: boolean;
  /** A step the output asks for (judge → topic when stateful); the run's advance enqueues it. */
  follow?: (output: unknown) => Stage | undefined;
};

export const defineStage = (spec: StageSpec): StageSpec => spec;

export const TaskInputSchema = z.object({ task: z.string() });
export const ChainStepInputSchema = z.object({ topic: TopicSchema, environmentId: z.string() });

/** A chain stage's compute: the step's topic and the subject's earlier outputs, read before the call. */
export const chainCompute =
  (
    compute: (
      input: { topic: z.infer<typeof TopicSchema>; earlier: Map<string, unknown> },
      ctx: ComputeContext,
    ) => Promise<Result<unknown, StepError>>,
  ) =>
  async (ctx: ComputeContext): Promise<Result<unknown, StepError>> => {
    const { topic } = ChainStepInputSchema.parse(ctx.step.input);
    const earlier = await chainOutputs(ctx.db, ctx.step.runId, ctx.step.subjectKey);
    return compute({ topic, earlier }, ctx);
  };

/**
 * The run page's data as it travels over JSON (dates as strings): produced by server/get-run.ts,
 * answered by GET /api/runs/:id and /api/runs/:id/summary, parsed by the pages with these schemas.
 */
import { z } from "zod";
import { AttemptEntrySchema } from "../llm/call-record";

/** One model endpoint's record in a run: attempts, errors and their causes. */
export const EndpointQualitySchema = z.object({
  model: z.string(),
  attempts: z.number(),
  errors: z.number(),
  errorRate: z.number(),
  p95LatencyMs: z.number().nullable(),
  causes: z.array(z.object({ code: z.string(), count: z.number() })),
});
export type EndpointQuality = z.infer<typeof EndpointQualitySchema>;

export const LlmAccountingViewSchema = z.object({
  requestsSent: z.number(),
  answersUsed: z.number(),
  answersRejected: z.number(),
  errorResponses: z.number(),
  answersLost: z.number(),
  inFlight: z.number(),
  cacheHits: z.number(),
  costUsd: z.number(),
  lostCostUsd: z.number(),
  /** Models the run called without a price: their calls count $0. */
  unpricedModels: z.array(z.string()),
  endpoints: z.array(EndpointQualitySchema),
});
export type LlmAccountingView = z.infer<typeof LlmAccountingViewSchema>;

export const LlmProblemViewSchema = z.object({
  id: z.string(),
  stepId: z.string().nullable(),
  purpose: z.string(),
  model: z.string(),
  status: z.string(),
  cached: z.boolean(),
  attempts: z.number(),
  rejection: z.string().nullable(),
  errorMessage: z.string().nullable(),
  rawReply: z.string().nullable(),
  attemptLog: z.array(AttemptEntrySchema),
  createdAt: z.string(),
});
export type LlmProblemView = z.infer<typeof LlmProblemViewSchema>;

export const StageProgressViewSchema = z.object({
  stage: z.string(),
  total: z.number(),
  pending: z.number(),
  running: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  cancelled: z.number(),
});
export type StageProgressView = z.infer<typeof StageProgressViewSchema>;

export const RunViewSchema = z.object({
  run: z.object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    costUsd: z.number(),
    maxCostUsd: z.number().nullable(),
    promptTokens: z.number(),
    completionTokens: z.number(),
    maxTokens: z.number().nullable(),
    errorMessage: z.string().nullable(),
    isTerminal: z.boolean(),
    /** Model names the run's config names. */
    models: z.array(z.string()),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  }),
  stages: z.array(StageProgressViewSchema),
  failures: z.array(
    z.object({
      id: z.string(),
      stage: z.string(),
      subjectKey: z.string(),
      status: z.string(),
      errorCode: z.string().nullable(),
      errorMessage: z.string().nullable(),
      retryable: z.boolean().nullable(),
      attempt: z.number(),
    }),
  ),
  environments: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      toolCount: z.number(),
      scenarioCount: z.number(),
    }),
  ),
  topics: z.array(
    z.object({
      id: z.string(),
      summary: z.string(),
      usefulness: z.number(),
      modelability: z.number(),
      clusterKey: z.string().nullable(),
      kept: z.boolean(),
      sourceTask: z.string(),
    }),
  ),
  steps: z.array(
    z.object({
      id: z.string(),
      stage: z.string(),
      subjectKey: z.string(),
      status: z.string(),
      attempt: z.number(),
      durationMs: z.number().nullable(),
      costUsd: z.number(),
      promptTokens: z.number(),
      completionTokens: z.number(),
    }),
  ),
  llm: LlmAccountingViewSchema,
  llmProblems: z.array(LlmProblemViewSchema),
});
export type RunView = z.infer<typeof RunViewSchema>;

/** The launch panel's view of a run: status, cost and step counts by stage and status. */
export const RunSummarySchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  errorMessage: z.string().nullable(),
  costUsd: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  stages: z.record(z.string(), z.record(z.string(), z.number())),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

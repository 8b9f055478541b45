/** The run page's data as it travels over JSON (dates as strings). Produced by server/get-run.ts. */
import type { AttemptEntry } from "../llm/call-record";

/** One model endpoint's record in a run: attempts, errors and their causes. */
export type EndpointQuality = {
  model: string;
  attempts: number;
  errors: number;
  errorRate: number;
  p95LatencyMs: number | null;
  causes: { code: string; count: number }[];
};

export type LlmAccountingView = {
  requestsSent: number;
  answersUsed: number;
  answersRejected: number;
  errorResponses: number;
  answersLost: number;
  inFlight: number;
  cacheHits: number;
  costUsd: number;
  lostCostUsd: number;
  /** Models the run called without a price: their calls count $0. */
  unpricedModels: string[];
  endpoints: EndpointQuality[];
};
export type LlmProblemView = {
  id: string;
  stepId: string | null;
  purpose: string;
  model: string;
  status: string;
  cached: boolean;
  attempts: number;
  rejection: string | null;
  errorMessage: string | null;
  rawReply: string | null;
  attemptLog: AttemptEntry[];
  createdAt: string;
};

export type StageProgressView = {
  stage: string;
  total: number;
  pending: number;
  running: number;
  succeeded: number;
  failed: number;
  cancelled: number;
};

export type RunView = {
  run: {
    id: string;
    name: string;
    status: string;
    costUsd: number;
    maxCostUsd: number | null;
    promptTokens: number;
    completionTokens: number;
    maxTokens: number | null;
    errorMessage: string | null;
    isTerminal: boolean;
    createdAt: string;
    finishedAt: string | null;
  };
  stages: StageProgressView[];
  failures: {
    id: string;
    stage: string;
    subjectKey: string;
    status: string;
    errorCode: string | null;
    errorMessage: string | null;
    retryable: boolean | null;
    attempt: number;
  }[];
  environments: { id: string; name: string; status: string; toolCount: number }[];
  topics: {
    id: string;
    summary: string;
    usefulness: number;
    modelability: number;
    clusterKey: string | null;
    kept: boolean;
    sourceTask: string;
  }[];
  steps: {
    id: string;
    stage: string;
    subjectKey: string;
    status: string;
    attempt: number;
    durationMs: number | null;
    costUsd: number;
    promptTokens: number;
    completionTokens: number;
  }[];
  llm: LlmAccountingView;
  llmProblems: LlmProblemView[];
};

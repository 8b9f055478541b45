/**
 * LLM settings from the environment, parsed once. Models per stage can be overridden per run
 * (the run's config is the record of what was used).
 */
import { z } from "zod";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
import { type PriceTable, parsePriceTable } from "./pricing";
import { DEFAULT_PERSIST_POLICY, type PersistPolicy } from "./persist";
import { formatZodIssues } from "../core/zod-issues";

const positiveInt = z.coerce.number().int().positive();

export const LlmEnvSchema = z.object({
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).default("gpt-4.1"),
  LLM_CHECK_MODEL: z.string().min(1).default("gpt-4.1-mini"),
  LLM_EMBEDDING_MODEL: z.string().min(1).optional(),
  /** Requests in flight at once per endpoint, over every worker sharing the database. */
  LLM_CONCURRENCY: positiveInt.default(8),
  /** Requests started per minute per endpoint, over every worker; unset for no rate limit. */
  LLM_REQUESTS_PER_MINUTE: positiveInt.optional(),
  LLM_TIMEOUT_MS: positiveInt.default(120_000),
  LLM_MAX_ATTEMPTS: positiveInt.default(DEFAULT_RETRY_POLICY.maxAttempts),
  LLM_RETRY_BASE_MS: positiveInt.default(DEFAULT_RETRY_POLICY.baseDelayMs),
  LLM_PRICES: z.string().optional(),
  /** How long a received answer is held while the database is away before giving up on storing it. */
  LLM_PERSIST_MAX_WAIT_MS: positiveInt.default(DEFAULT_PERSIST_POLICY.maxWaitMs),
});

export type LlmConfig = {
  baseUrl: string | null;
  apiKey: string;
  defaultModel: string;
  checkModel: string;
  embeddingModel: string | null;
  concurrency: number;
  requestsPerMinute: number | null;
  timeoutMs: number;
  retry: RetryPolicy;
  prices: PriceTable;
  persist: PersistPolicy;
};

export function readLlmConfig(env: Record<string, string | undefined> = process.env): LlmConfig {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = LlmEnvSchema.safeParse(clean);
  if (!parsed.success)
    throw new Error(`invalid LLM configuration: ${formatZodIssues(parsed.error, { root: "config" })}`);
  const e = parsed.data;
  return {
    baseUrl: e.OPENAI_BASE_URL ?? null,
    apiKey: e.OPENAI_API_KEY ?? "",
    defaultModel: e.LLM_MODEL,
    checkModel: e.LLM_CHECK_MODEL,
    embeddingModel: e.LLM_EMBEDDING_MODEL ?? null,
    concurrency: e.LLM_CONCURRENCY,
    requestsPerMinute: e.LLM_REQUESTS_PER_MINUTE ?? null,
    timeoutMs: e.LLM_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: e.LLM_MAX_ATTEMPTS, baseDelayMs: e.LLM_RETRY_BASE_MS },
    prices: parsePriceTable(e.LLM_PRICES),
    persist: { ...DEFAULT_PERSIST_POLICY, maxWaitMs: e.LLM_PERSIST_MAX_WAIT_MS },
  };
}

let cached: LlmConfig | null = null;
/** The process's LLM configuration, read once. */
export const getLlmConfig = (): LlmConfig => (cached ??= readLlmConfig());

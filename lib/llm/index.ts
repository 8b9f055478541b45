/**
 * Public entry of the LLM domain: an OpenAI-compatible client with retries, a per-endpoint
 * concurrency limit, a response cache and cost accounting, plus parsers with bounded re-asks.
 */
export * from "./llm.schema";
export { type Answer, type LlmCache, type LlmClient, type LlmClientDeps, createLlmClient } from "./client";
export {
  type AttemptEntry,
  type CacheHitRecord,
  type CallOutcome,
  type CallStart,
  type CallStatus,
  type LlmRecorder,
  estimateUsage,
} from "./call-record";
export { type MemoryCall, createMemoryCache, createMemoryRecorder } from "./memory";
export { listModels, unknownModels } from "./list-models";
export { DEFAULT_PERSIST_POLICY, type PersistPolicy, persistWithRetry } from "./persist";
export { linkSignal } from "./abort";
export { chatCacheKey, embeddingCacheKey, canonicalJson } from "./cache-key";
export { createLimiter, type Limiter } from "./limiter";
export { createOpenAiTransport, mapSdkError, parseRetryAfter, type Transport } from "./openai-transport";
export {
  DEFAULT_PRICES,
  type PriceTable,
  PriceTableSchema,
  costOf,
  findPrice,
  parsePriceTable,
  requirePricesForBudget,
  unpricedModels,
  unpricedWarning,
} from "./pricing";
export { DEFAULT_RETRY_POLICY, type RetryPolicy, backoffDelay, realSleep, withRetries } from "./retry";
export { type LlmConfig, getLlmConfig, readLlmConfig } from "./llm-config";
export {
  DEFAULT_MAX_REASKS,
  type ParsedReply,
  type Parser,
  chatParsed,
  extractJsonObject,
  extractPythonBlock,
  extractSection,
  parseJsonWith,
  reaskMessage,
  stripThinking,
  sumUsage,
} from "./parse";
export { DEMO_MODEL_NAME, isDemoModel } from "./demo-model";
export { isDemoStudio } from "./demo-studio";

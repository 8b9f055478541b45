import type { Result } from "../core/result";
import type { LlmRecorder } from "./call-record";
import type { Limiter } from "./limiter";
import type { ChatRequest, ChatResult, LlmError } from "./llm.schema";
import type { Transport } from "./openai-transport";
import type { PersistPolicy } from "./persist";
import type { PriceTable } from "./pricing";
import type { RetryDeps, RetryPolicy } from "./retry";

/** Judges a reply: the value the stage will use, or why the reply cannot be used. May throw when the check itself cannot run. */
export type Parser<T> = (reply: ChatResult) => Result<T, string> | Promise<Result<T, string>>;
export type Answer<T> = { reply: ChatResult; verdict: Result<T, string> };

export interface LlmClient {
  chat(request: ChatRequest): Promise<Result<ChatResult, LlmError>>;
  /** Asks and judges the reply with `accept` before caching it; the verdict says whether it was used. */
  ask<T>(request: ChatRequest, accept: Parser<T>): Promise<Result<Answer<T>, LlmError>>;
  embed(model: string, input: string[]): Promise<Result<number[][], LlmError>>;
}

/** Postgres in production (LlmCacheEntry); a Map in unit tests. */
export interface LlmCache {
  get(key: string): Promise<unknown>;
  put(key: string, model: string, response: unknown): Promise<void>;
  evict(key: string): Promise<void>;
}

export type LlmClientDeps = {
  transport: Transport;
  cache: LlmCache;
  recorder: LlmRecorder;
  limiter: Limiter;
  prices: PriceTable;
  retry: RetryPolicy;
  retryDeps: RetryDeps;
  persist?: PersistPolicy;
  now?: () => number;
};

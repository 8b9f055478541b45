/**
 * Retries with exponential backoff and full jitter for transient failures (429, 5xx, timeouts,
 * dropped connections). A Retry-After from the server wins over our own schedule. The SDK's own
 * retries are off (maxRetries: 0), so these are the only ones and every attempt is visible.
 */
import { type Result, err } from "../core/result";
import type { LlmError } from "./llm.schema";

export const DEFAULT_RETRY_POLICY = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 120_000,
};
export type RetryPolicy = typeof DEFAULT_RETRY_POLICY;

export type RetryDeps = { sleep: (ms: number) => Promise<void>; random: () => number; signal?: AbortSignal };

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Delay before attempt `attempt + 1` (attempt counts from 0). */
export function backoffDelay(
  attempt: number,
  error: LlmError,
  policy: RetryPolicy,
  random: () => number,
): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  // "Equal jitter": never less than half the ceiling, so retries do not stampede at ~0 ms.
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export async function withRetries<T>(
  attemptOnce: (attempt: number) => Promise<Result<T, LlmError>>,
  policy: RetryPolicy,
  deps: RetryDeps,
  onRetry?: (error: LlmError, attempt: number, delayMs: number) => void,
): Promise<Result<T, LlmError>> {
  for (let attempt = 0; ; attempt += 1) {
    if (deps.signal?.aborted) return err({ code: "CANCELLED", message: "cancelled", retryable: false });
    const result = await attemptOnce(attempt);
    if (result.ok || !result.error.retryable || attempt + 1 >= policy.maxAttempts) {
      if (!result.ok && result.error.retryable && attempt + 1 >= policy.maxAttempts) {
        return err({
          ...result.error,
          message: `${result.error.message} (gave up after ${attempt + 1} attempts)`,
        });
      }
      return result;
    }
    // A Retry-After beyond what we are willing to wait: hand the failure back (still retryable),
    // so the job layer retries later instead of holding a worker slot.
    if (result.error.retryAfterMs !== undefined && result.error.retryAfterMs > policy.maxRetryAfterMs)
      return result;
    const delay = backoffDelay(attempt, result.error, policy, deps.random);
    onRetry?.(result.error, attempt, delay);
    await deps.sleep(delay);
  }
}

/**
 * Writes that hold a paid answer (the call record, the cache entry) must not lose it because the
 * database is briefly away: they are retried with bounded backoff while the answer stays in
 * memory, instead of failing the step and asking the endpoint again.
 */
export type PersistPolicy = { maxWaitMs: number; baseDelayMs: number; maxDelayMs: number };

/** Long enough for a Postgres restart or failover; a worker holds the answer meanwhile. */
export const DEFAULT_PERSIST_POLICY: PersistPolicy = {
  maxWaitMs: 60_000,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
};

export async function persistWithRetry<T>(
  write: () => Promise<T>,
  policy: PersistPolicy,
  sleep: (ms: number) => Promise<void>,
  now: () => number = Date.now,
): Promise<T> {
  const deadline = now() + policy.maxWaitMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      if (now() + delay > deadline) throw error;
      await sleep(delay);
    }
  }
}

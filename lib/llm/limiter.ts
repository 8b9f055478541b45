/**
 * A counting semaphore. One per endpoint (base URL) per process, so every stage and every run in
 * a worker shares the endpoint's concurrency budget. FIFO, so waiting chains progress evenly.
 */
export type Limiter = {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly limit: number;
  active(): number;
  waiting(): number;
};

export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: (() => void)[] = [];
  const acquire = () =>
    new Promise<void>((resolve) => {
      if (active < limit) {
        active += 1;
        resolve();
      } else queue.push(resolve);
    });
  const release = () => {
    const next = queue.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else active -= 1;
  };
  return {
    limit,
    active: () => active,
    waiting: () => queue.length,
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

const byEndpoint = new Map<string, Limiter>();

/** The process-wide limiter for an endpoint; the first caller's limit wins until reset. */
export function getEndpointLimiter(endpoint: string, limit: number): Limiter {
  let limiter = byEndpoint.get(endpoint);
  if (!limiter || limiter.limit !== limit) {
    limiter = createLimiter(limit);
    byEndpoint.set(endpoint, limiter);
  }
  return limiter;
}

/**
 * A counting semaphore, FIFO, so waiting chains progress evenly. In front of the endpoint's limits
 * held across workers (server/global-limiter.ts), and alone where no database is involved.
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

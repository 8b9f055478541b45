/**
 * Readiness and graceful drain of an env server. An orchestrator (Kubernetes, a load balancer's
 * health check) stops routing to a replica whose GET /ready answers 503; on SIGTERM the replica
 * drains: it refuses new sessions and new episodes (clients reconnect to another replica), lets
 * every call already in flight finish and answer, and only then closes.
 */
export type Lifecycle = ReturnType<typeof createLifecycle>;

export function createLifecycle() {
  let draining = false;
  let inFlight = 0;
  let idle: (() => void)[] = [];

  return {
    draining: () => draining,
    inFlight: () => inFlight,
    /** Counts `work` as in flight until it settles (its reply is sent by then). */
    async track<T>(work: () => Promise<T>): Promise<T> {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        if (inFlight === 0) for (const wake of idle.splice(0)) wake();
      }
    },
    /** Refuses new sessions from now on; resolves true once nothing is in flight, false if
     * `timeoutMs` passed first. */
    drain(timeoutMs: number): Promise<boolean> {
      draining = true;
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          idle = idle.filter((w) => w !== done);
          resolve(false);
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve(true);
        };
        idle.push(done);
      });
    },
  };
}

export const DRAINING_MESSAGE =
  "this server is shutting down and takes no new sessions or episodes: reconnect (another replica will answer)";

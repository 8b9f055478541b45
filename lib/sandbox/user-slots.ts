/**
 * Per-user concurrency limit for interactive sandbox work (playground calls, validator bench, editor
 * analysis). The worker pool is shared by everyone; without this one user running expensive code in
 * a few tabs holds every worker while other reviewers' calls queue behind. Over the limit, a call is
 * refused at once with RATE_LIMITED ("busy, retry") instead of queuing.
 *
 * In-process: each web server process counts its own callers (one process per studio; a second one
 * would double the allowance, which is still bounded).
 */
import { AppError } from "../core/errors";
import { readEnv } from "../env";

/** Default: one interactive sandbox call per user at a time (SANDBOX_POOL_SIZE defaults to 2). */
export const DEFAULT_SANDBOX_CALLS_PER_USER = 1;

export class UserSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Runs `work` holding one of `userKey`'s slots, or throws RATE_LIMITED when all are taken. */
  async run<T>(userKey: string, work: () => Promise<T>): Promise<T> {
    const held = this.inFlight.get(userKey) ?? 0;
    if (held >= this.limit) {
      const what = this.limit === 1 ? "a sandbox run" : `${this.limit} sandbox runs`;
      throw new AppError(
        "RATE_LIMITED",
        `Busy: you already have ${what} in progress (playground, validator bench or editor analysis). Retry when it finishes.`,
        {
          details: { retryAfterSeconds: 1 },
        },
      );
    }
    this.inFlight.set(userKey, held + 1);
    try {
      return await work();
    } finally {
      const left = (this.inFlight.get(userKey) ?? 1) - 1;
      if (left > 0) this.inFlight.set(userKey, left);
      else this.inFlight.delete(userKey);
    }
  }
}

export function sandboxCallsPerUser(env: Record<string, string | undefined> = process.env): number {
  return readEnv("ENVSTUDIO_SANDBOX_CALLS_PER_USER", env) ?? DEFAULT_SANDBOX_CALLS_PER_USER;
}

/** One registry per process: route and action bundles may each load this module, so it lives on globalThis. */
const KEY = Symbol.for("envstudio.userSandboxSlots");
export function userSandboxSlots(): UserSlots {
  const g = globalThis as { [KEY]?: UserSlots };
  g[KEY] ??= new UserSlots(sandboxCallsPerUser());
  return g[KEY];
}

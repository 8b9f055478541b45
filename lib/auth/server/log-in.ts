import "server-only";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { LoginInput } from "../auth.schema";
import {
  FREE_FAILURES_PER_ACCOUNT,
  FREE_FAILURES_PER_ADDRESS,
  THROTTLE_WINDOW_MS,
  describeWait,
  throttleWaitMs,
} from "../login-throttle";
import { hashPassword, verifyPassword } from "../password";
import { createSession } from "./sessions";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** Hash of a throwaway password: unknown emails cost the same time as wrong passwords. */
let dummyHash: Promise<string> | null = null;

/** Enough rows to reach the longest wait; older failures change nothing. */
const MAX_ROWS = 32;

async function recentFailures(
  tx: Tx,
  where: { email: string } | { address: string },
  since: Date,
): Promise<Date[]> {
  const rows = await tx.loginAttempt.findMany({
    where: { ...where, succeeded: false, createdAt: { gt: since } },
    orderBy: { createdAt: "desc" },
    take: MAX_ROWS,
    select: { createdAt: true },
  });
  return rows.map((r) => r.createdAt);
}

/** Refuses with RATE_LIMITED while the account or the address must wait. */
async function assertNotThrottled(tx: Tx, email: string, address: string, now: Date) {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  // A successful sign-in clears the account's count (not the address's: one success must not
  // launder an address that is guessing other accounts).
  const lastSuccess = await tx.loginAttempt.findFirst({
    where: { email, succeeded: true },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  const since = lastSuccess && lastSuccess.createdAt > windowStart ? lastSuccess.createdAt : windowStart;
  const waits = [
    throttleWaitMs(await recentFailures(tx, { email }, since), FREE_FAILURES_PER_ACCOUNT, now),
    throttleWaitMs(await recentFailures(tx, { address }, windowStart), FREE_FAILURES_PER_ADDRESS, now),
  ];
  const wait = Math.max(...waits);
  if (wait > 0) {
    const retryAfterSeconds = Math.ceil(wait / 1000);
    throw new AppError("RATE_LIMITED", `Too many failed sign-ins. Try again in ${describeWait(wait)}.`, {
      details: { retryAfterSeconds },
    });
  }
}

/**
 * Checks the credentials and opens a session; one message for every failure (no account probing).
 * Attempts on one email run one at a time (advisory lock), so parallel guesses see each other's
 * failures; every checked attempt is recorded (LoginAttempt) and drives the throttle.
 */
export async function logIn(
  db: Db,
  input: Pick<LoginInput, "email" | "password">,
  opts: { address?: string; now?: Date } = {},
) {
  const address = opts.address ?? "unknown";
  const now = opts.now ?? new Date();
  dummyHash ??= hashPassword("not-a-real-password");
  const fallbackHash = await dummyHash;
  const userId = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`login:${input.email}`}))`;
      await assertNotThrottled(tx, input.email, address, now);
      const user = await tx.user.findUnique({ where: { email: input.email } });
      const valid = await verifyPassword(input.password, user?.passwordHash ?? fallbackHash);
      const succeeded = Boolean(user && valid && !user.disabledAt);
      await tx.loginAttempt.create({ data: { email: input.email, address, succeeded, createdAt: now } });
      return succeeded ? user?.id : null;
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  if (!userId) throw new AppError("UNAUTHENTICATED", "Wrong email or password.");
  return createSession(db, userId, now);
}

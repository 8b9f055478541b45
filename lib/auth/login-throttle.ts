/**
 * Sign-in throttling (pure rule; lib/auth/server/log-in.ts applies it). Each key — the account's
 * email, and the client address — gets a few free failures, then every further failure doubles the
 * wait before the next attempt, up to a cap. A refused attempt is not checked and does not count,
 * so the wait never grows while the user waits it out, and the right password works once it ends.
 */

/** Failures older than this are forgotten. */
export const THROTTLE_WINDOW_MS = 60 * 60 * 1000;
/** Free failures per account before waits start (mistyped passwords are normal). */
export const FREE_FAILURES_PER_ACCOUNT = 5;
/** Free failures per client address: higher, as one address may front a whole office (NAT). */
export const FREE_FAILURES_PER_ADDRESS = 20;
const FIRST_WAIT_MS = 1000;
const MAX_WAIT_MS = 15 * 60 * 1000;

/** Milliseconds until the next attempt is allowed, given the key's recent failure times. */
export function throttleWaitMs(failures: Date[], freeFailures: number, now: Date): number {
  if (failures.length < freeFailures) return 0;
  const latest = Math.max(...failures.map((d) => d.getTime()));
  const wait = Math.min(FIRST_WAIT_MS * 2 ** (failures.length - freeFailures), MAX_WAIT_MS);
  return Math.max(0, latest + wait - now.getTime());
}

/** "12 seconds", "3 minutes": when to retry, for the message shown on the login form. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

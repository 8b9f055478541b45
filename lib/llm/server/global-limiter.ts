import "server-only";
/**
 * An endpoint's concurrency and request-rate limits held across every worker process and machine
 * that shares the database. N workers with a per-process limit of 8 would send 8·N requests at once
 * to one endpoint; here a request in flight holds one of the endpoint's slot rows
 * (LlmEndpointSlot), and each request first takes a token from the endpoint's bucket
 * (LlmEndpointRate).
 *
 * A slot is a lease: its holder renews `expiresAt` while the request runs, so a worker that dies
 * mid-request (killed, machine lost) stops renewing and its slot frees itself after the lease
 * time; capacity is never leaked. Slots are taken with `FOR UPDATE SKIP LOCKED`, so two workers
 * never get the same slot and never wait on each other's row locks. Waiting is polling with
 * backoff (a request takes seconds; a poll is one indexed statement). Every worker should run with
 * the same limits: with different LLM_CONCURRENCY values, the largest one holds.
 *
 * Within a process, a slot a finished request frees goes straight to the process's oldest waiting
 * request (no polling delay, no round trip), and at most `concurrency` waiting requests poll.
 *
 * The database being briefly away (a restart, a failover) is waited out with the same bounded
 * backoff as the writes that hold a paid answer (persist.ts): a request waiting for its slot or
 * token keeps waiting rather than failing. Its call is already recorded as sent, so failing it would
 * turn a request never sent into a "paid, answer lost" one and fail its step.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../../db";
import type { Limiter } from "../limiter";
import { DEFAULT_PERSIST_POLICY, type PersistPolicy, persistWithRetry } from "../persist";

export type GlobalLimits = {
  /** Requests in flight at once, over every worker. */
  concurrency: number;
  /** Requests started per minute, over every worker; null for no rate limit. */
  requestsPerMinute: number | null;
};

export type GlobalLimiterTiming = {
  /** How long a slot outlives its holder's last renewal. */
  leaseMs: number;
  /** First and longest wait between two attempts to get a slot or a token. */
  pollMinMs: number;
  pollMaxMs: number;
};

export const DEFAULT_GLOBAL_LIMITER_TIMING: GlobalLimiterTiming = {
  leaseMs: 10_000,
  pollMinMs: 20,
  pollMaxMs: 250,
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Held = { slot: number; holder: string; renew: NodeJS.Timeout };
type Waiter = { give: (held: Held) => void; fail: (error: unknown) => void; polling: boolean; done: boolean };

export function createGlobalLimiter(
  db: Db,
  endpoint: string,
  limits: GlobalLimits,
  timing: GlobalLimiterTiming = DEFAULT_GLOBAL_LIMITER_TIMING,
  outage: PersistPolicy = DEFAULT_PERSIST_POLICY,
): Limiter {
  const waitingOut = <T>(statement: () => Promise<T>) => persistWithRetry(statement, outage, sleep);
  const owner = `${hostname()}:${process.pid}`;
  // The bucket holds one second's worth of requests (at least one): a burst after a quiet spell
  // is bounded by that, and the long-run rate is the configured one.
  const perSecond = limits.requestsPerMinute ? limits.requestsPerMinute / 60 : 0;
  const capacity = Math.max(1, perSecond);
  let prepared: Promise<void> | null = null;
  /** This process's requests waiting for a slot, oldest first. */
  const wanting: Waiter[] = [];
  let active = 0;

  const prepare = () =>
    (prepared ??= (async () => {
      await db.$executeRaw`INSERT INTO "LlmEndpointSlot" (endpoint, slot)
        SELECT ${endpoint}, g FROM generate_series(0, ${limits.concurrency - 1}::int) g ON CONFLICT DO NOTHING`;
      if (perSecond > 0)
        await db.$executeRaw`INSERT INTO "LlmEndpointRate" (endpoint, tokens, "updatedAt")
          VALUES (${endpoint}, ${capacity}, clock_timestamp()) ON CONFLICT DO NOTHING`;
    })().catch((error: unknown) => {
      prepared = null; // the next request tries again
      throw error;
    }));

  async function takeSlot(): Promise<Held | null> {
    const holder = `${owner}:${randomUUID()}`;
    const rows = await db.$queryRaw<{ slot: number }[]>`
      WITH free AS (
        SELECT slot FROM "LlmEndpointSlot"
        WHERE endpoint = ${endpoint} AND slot < ${limits.concurrency}
          AND (holder IS NULL OR "expiresAt" < now())
        ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)
      UPDATE "LlmEndpointSlot" s
      SET holder = ${holder}, "expiresAt" = now() + ${timing.leaseMs}::int * interval '1 millisecond'
      FROM free WHERE s.endpoint = ${endpoint} AND s.slot = free.slot
      RETURNING s.slot`;
    const slot = rows[0]?.slot;
    if (slot === undefined) return null;
    // Renewed while anyone in this process holds it; a dead process stops renewing.
    const renew = setInterval(
      () =>
        void db.$executeRaw`UPDATE "LlmEndpointSlot"
          SET "expiresAt" = now() + ${timing.leaseMs}::int * interval '1 millisecond'
          WHERE endpoint = ${endpoint} AND slot = ${slot} AND holder = ${holder}`.catch(() => undefined),
      Math.max(10, Math.floor(timing.leaseMs / 3)),
    );
    renew.unref();
    return { slot, holder, renew };
  }

  async function releaseSlot(held: Held): Promise<void> {
    clearInterval(held.renew);
    // Only our own hold is cleared: if the lease had expired and another worker took the slot,
    // this changes nothing.
    await db.$executeRaw`UPDATE "LlmEndpointSlot" SET holder = NULL, "expiresAt" = NULL
      WHERE endpoint = ${endpoint} AND slot = ${held.slot} AND holder = ${held.holder}`.catch(
      () => undefined,
    );
  }

  /** clock_timestamp(), not now(): a statement that waited on the row lock must not refill from
   * its start time, and the bucket's time never moves back. */
  async function takeToken(): Promise<boolean> {
    const rows = await db.$queryRaw<{ tokens: number }[]>`
      UPDATE "LlmEndpointRate"
      SET tokens = LEAST(${capacity}::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM (clock_timestamp() - "updatedAt"))) * ${perSecond}::float8) - 1,
          "updatedAt" = GREATEST("updatedAt", clock_timestamp())
      WHERE endpoint = ${endpoint}
        AND LEAST(${capacity}::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM (clock_timestamp() - "updatedAt"))) * ${perSecond}::float8) >= 1
      RETURNING tokens`;
    return rows.length > 0;
  }

  const pause = (wait: number) => sleep(wait * (0.5 + Math.random()));

  /** A slot this process is done with goes straight to its oldest waiter (no round trip, no
   * polling delay), else back to the table. */
  function passOn(held: Held): Promise<void> {
    const next = wanting.shift();
    if (!next) return releaseSlot(held);
    next.done = true;
    next.give(held);
    startPolling();
    return Promise.resolve();
  }

  /** At most `concurrency` of this process's waiters poll the table; the rest wait their turn. */
  function startPolling() {
    let polling = wanting.filter((w) => w.polling).length;
    for (const waiter of wanting) {
      if (polling >= limits.concurrency) break;
      if (waiter.polling) continue;
      waiter.polling = true;
      polling += 1;
      void poll(waiter);
    }
  }

  async function poll(waiter: Waiter) {
    let wait = timing.pollMinMs;
    while (!waiter.done) {
      let held: Held | null;
      try {
        held = await waitingOut(takeSlot);
      } catch (error) {
        if (waiter.done) return;
        wanting.splice(wanting.indexOf(waiter), 1);
        waiter.done = true;
        waiter.fail(error);
        startPolling();
        return;
      }
      if (held) {
        if (waiter.done)
          await passOn(held); // it was handed one meanwhile: this one goes on
        else {
          wanting.splice(wanting.indexOf(waiter), 1);
          waiter.done = true;
          waiter.give(held);
          startPolling();
        }
        return;
      }
      await pause(wait);
      wait = Math.min(timing.pollMaxMs, wait * 1.5);
    }
  }

  const obtain = () =>
    new Promise<Held>((give, fail) => {
      wanting.push({ give, fail, polling: false, done: false });
      startPolling();
    });

  return {
    limit: limits.concurrency,
    active: () => active,
    waiting: () => wanting.length,
    async run(task) {
      await waitingOut(prepare);
      const held = await obtain();
      active += 1;
      try {
        if (perSecond > 0) {
          let wait = timing.pollMinMs;
          while (!(await waitingOut(takeToken))) {
            await pause(wait);
            wait = Math.min(timing.pollMaxMs, wait * 1.5);
          }
        }
        return await task();
      } finally {
        active -= 1;
        await passOn(held);
      }
    },
  };
}

const byDb = new WeakMap<Db, Map<string, Limiter>>();

/** The process's limiter for an endpoint on a database; a change of limits replaces it. */
export function getGlobalEndpointLimiter(db: Db, endpoint: string, limits: GlobalLimits): Limiter {
  const limiters = byDb.get(db) ?? new Map<string, Limiter>();
  byDb.set(db, limiters);
  const key = `${endpoint}\u0000${limits.concurrency}\u0000${limits.requestsPerMinute ?? ""}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = createGlobalLimiter(db, endpoint, limits);
    limiters.set(key, limiter);
  }
  return limiter;
}

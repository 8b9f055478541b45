/**
 * The kept plan facts ("ScenarioPlanFact", migration 20261212000000_scenario_plan_fact): every
 * writer of an input keeps them exact, whatever it writes through (Prisma, hand-written SQL, bulk
 * statements), and two writers of one scenario's inputs at once cannot leave a row computed from
 * a snapshot that missed the other. "Exact" means a refresh from scratch changes nothing.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { someoneWaitsOnALock } from "@/tests/lock-wait";
import { addEvidence, seedCorpus } from "@/tests/random-corpus";
import { seededRandom } from "../split";

const t = useTestDatabase();

const facts = () =>
  t.db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM "ScenarioPlanFact" ORDER BY "scenarioId"`;

/** The facts as kept, then recomputed from scratch: they must be the same rows. */
async function expectExact() {
  const kept = await facts();
  await t.db
    .$queryRaw`SELECT count(*) FROM (SELECT "plan_fact_refresh"(ARRAY(SELECT "id" FROM "Scenario"))) AS refreshed`;
  expect(kept).toEqual(await facts());
  expect(kept.length).toBe(await t.db.scenario.count());
}

async function acceptedScenario() {
  const r = seededRandom(11);
  const corpus = await seedCorpus(t.db, r, `f${Date.now()}`);
  const fact = await t.db.scenarioPlanFact.findFirstOrThrow({
    // ok or problem: a scenario with accepted checks on an accepted environment version.
    where: { projectId: corpus.projectId, planClass: { in: ["ok", "problem"] } },
    orderBy: { scenarioId: "asc" },
  });
  return { corpus, r, fact };
}

/** An insert on the fact's own pins ($1 scenario, $2 environment version, $3 validator versions). */
const proofWrite = (id: string, status: "VERIFIED" | "FAILED") =>
  `INSERT INTO "ValidatorProof" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", status, noop, gold, sensitivity, "createdAt")
   VALUES ('${id}', $1, $2, $3::jsonb, '${status}', '{}', '{}', '{}', now() + interval '1 day')`;
const rolloutWrite = (id: string, reward: number) =>
  `INSERT INTO "Trajectory" (id, "scenarioId", "environmentVersionId", "validatorVersionIds", model, mode, messages, steps, "finalState", "checkResults", reward, status, "stepCount")
   VALUES ('${id}', $1, $2, $3::jsonb, 'model-race', 'non_conversational', '{}', '[]', '{}', '[]', ${reward}, 'COMPLETED', 1)`;

/** `held` runs in a transaction left open until `waiting` (another connection) waits on a lock. */
async function race(
  held: string,
  waiting: string,
  fact: { scenarioId: string; environmentVersionId: string | null; validatorVersionIds: unknown },
) {
  const params = [fact.scenarioId, fact.environmentVersionId, JSON.stringify(fact.validatorVersionIds)];
  const holder = new pg.Client({ connectionString: t.url });
  const waiter = new pg.Client({ connectionString: t.url });
  await holder.connect();
  await waiter.connect();
  try {
    await holder.query("BEGIN");
    await holder.query(held, params);
    const second = waiter.query(waiting, params);
    await someoneWaitsOnALock(holder, "the second writer's fact refresh");
    await holder.query("COMMIT");
    await second;
  } finally {
    await holder.end();
    await waiter.end();
  }
}

describe("the kept plan facts", () => {
  it("stay exact through every writer of their inputs", async () => {
    const { corpus, r } = await acceptedScenario();
    await expectExact();
    const [env] = corpus.environments;
    if (!env) throw new Error("empty corpus");
    // Hand-written bulk SQL on every input table.
    await t.db
      .$executeRaw`UPDATE "Environment" SET "status" = 'ACCEPTED', "slug" = "slug" || '-x' WHERE "id" = ${env.id}`;
    await t.db.$executeRaw`UPDATE "Scenario" SET "status" = 'ACCEPTED' WHERE "environmentId" = ${env.id}`;
    await t.db.$executeRaw`UPDATE "Validator" SET "currentVersionId" = NULL WHERE "position" = 1`;
    await t.db.$executeRaw`UPDATE "ValidatorProof" SET "status" = 'FAILED' WHERE "createdAt" < '2026-01-02'`;
    await t.db.$executeRaw`UPDATE "Trajectory" SET "reward" = 1 - "reward"`;
    await expectExact();
    for (const s of corpus.scenarios) await addEvidence(t.db, r, corpus, s.id);
    await t.db.$executeRaw`DELETE FROM "ValidatorProof" WHERE "status" = 'STALE'`;
    await t.db.$executeRaw`DELETE FROM "Trajectory" WHERE "model" = 'model-a'`;
    await t.db.$executeRaw`UPDATE "Environment" SET "acceptedVersionId" = NULL, "status" = 'IN_REVIEW'`;
    await expectExact();
    await t.db.$executeRaw`DELETE FROM "Validator" WHERE "position" = 0`;
    await t.db
      .$executeRaw`UPDATE "Scenario" SET "acceptedValidatorVersionIds" = '["x"]'::jsonb, "status" = 'IN_REVIEW'`;
    await expectExact();
  });

  it("a rollout written while a proof of the same scenario is open waits for it, then counts on the proven row", async () => {
    const { fact } = await acceptedScenario();
    await race(proofWrite("race-proof", "VERIFIED"), rolloutWrite("race-rollout", 1), fact);
    const after = await t.db.scenarioPlanFact.findUniqueOrThrow({ where: { scenarioId: fact.scenarioId } });
    expect(after.proofStatus).toBe("VERIFIED");
    expect(after.n).toBe(fact.n + 1);
    expect(after.successes).toBe(fact.successes + 1);
    await expectExact();
  });

  it("a proof written while a rollout of the same scenario is open waits for it, then keeps its count", async () => {
    const { fact } = await acceptedScenario();
    await race(rolloutWrite("race-rollout-2", 0), proofWrite("race-proof-2", "FAILED"), fact);
    const after = await t.db.scenarioPlanFact.findUniqueOrThrow({ where: { scenarioId: fact.scenarioId } });
    expect(after.proofStatus).toBe("FAILED");
    expect(after.planClass).toBe("problem");
    expect(after.n).toBe(fact.n + 1);
    expect(after.successes).toBe(fact.successes);
    await expectExact();
  });
});

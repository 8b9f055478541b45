/**
 * A decision is a compare-and-set on the versions the reviewer saw. The races are reproduced
 * deterministically: a second pg connection performs a save's writes inside a transaction it holds
 * open until the decision is seen waiting on a lock, then commits. And an undo never re-accepts
 * checks someone edited after the decision.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { sameIds } from "@/lib/review/acceptance";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import {
  actorOf,
  createEnvironment,
  createScenario,
  createTestProject,
  createUser,
  currentVersionsOf,
  proveScenario,
} from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";
import { someoneWaitsOnALock } from "@/tests/lock-wait";
import { DecideItemInputSchema } from "../review.schema";
import { decideItem } from "./decide-item";
import { undoLastDecision } from "./undo-decision";

const t = useTestDatabase();

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => undefined);
});

async function world() {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id, { status: "ACCEPTED" });
  const scenario = await createScenario(t.db, env.id, { status: "IN_REVIEW" });
  await proveScenario(t.db, scenario.id);
  const validator = await t.db.validator.findFirstOrThrow({ where: { scenarioId: scenario.id } });
  const reviewer = async () => {
    const u = await createUser(t.db, { role: "REVIEWER" });
    return actorOf(u);
  };
  return { project, env, scenario, validator, alice: await reviewer(), bob: await reviewer() };
}

/** A second connection with an open transaction; `commit` ends it. */
async function openTransaction() {
  const client = new pg.Client({ connectionString: t.url });
  clients.push(client);
  await client.connect();
  await client.query("BEGIN");
  return { client, commit: () => client.query("COMMIT") };
}

const isAcceptedOnCurrentChecks = async (scenarioId: string) => {
  const s = await t.db.scenario.findUniqueOrThrow({
    where: { id: scenarioId },
    include: { validators: { orderBy: { position: "asc" } } },
  });
  const current = s.validators.map((v) => v.currentVersionId ?? "");
  return {
    status: s.status,
    consistent: sameIds((s.acceptedValidatorVersionIds as string[]) ?? [], current),
  };
};

describe("a decision names the versions the reviewer saw", () => {
  it("is refused without them", () => {
    const missing = [
      { kind: "environment", id: "e", decision: "ACCEPT" },
      { kind: "scenario", id: "s", decision: "ACCEPT", environmentVersionId: "v" },
      { kind: "scenario", id: "s", decision: "ACCEPT", validatorVersionIds: [] },
    ];
    for (const input of missing) expect(DecideItemInputSchema.safeParse(input).success).toBe(false);
  });

  it("a scenario accepted while a check is being saved: the decision waits for the save, then is refused", async () => {
    const { scenario, validator, alice } = await world();
    const seen = await currentVersionsOf(t.db, "scenario", scenario.id);
    // Bob's save, as saveValidatorVersion writes it: new version, compare-and-set swap, proof STALE.
    const save = await openTransaction();
    const { rows } = await save.client.query<{ id: string }>(
      `INSERT INTO "ValidatorVersion" ("id", "validatorId", "version", "code", "checkItem", "producedBy")
       VALUES ('race-v2', $1, 2, 'def check_func(final_state):\n    return True\n', 'check 1', 'user') RETURNING "id"`,
      [validator.id],
    );
    await save.client.query(
      `UPDATE "Validator" SET "currentVersionId" = $1 WHERE "id" = $2 AND "currentVersionId" = $3`,
      [rows[0]!.id, validator.id, validator.currentVersionId],
    );
    await save.client.query(`UPDATE "Scenario" SET "proofStatus" = 'STALE' WHERE "id" = $1`, [scenario.id]);

    const decision = decideItem(t.db, { ...seen, decision: "ACCEPT", reason: "" }, alice).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await someoneWaitsOnALock(save.client, "the decision");
    await save.commit();
    const outcome = await decision;

    expect(outcome.ok ? "accepted" : outcome.error).toMatchObject({ code: "CONFLICT" });
    const after = await isAcceptedOnCurrentChecks(scenario.id);
    expect(after.status).not.toBe("ACCEPTED");
    expect(await t.db.reviewDecision.count({ where: { targetId: scenario.id, decision: "ACCEPT" } })).toBe(0);
  });

  it("an environment accepted while its code is being saved: refused, never accepted on the unseen version", async () => {
    const { env, alice } = await world();
    const save = await openTransaction();
    await save.client.query(
      `INSERT INTO "EnvironmentVersion" ("id", "environmentId", "version", "className", "source", "sourceHash", "producedBy")
       VALUES ('race-env-v2', $1, 2, 'Counter', 'class Counter:\n    pass\n', 'x', 'user')`,
      [env.id],
    );
    await save.client.query(
      `UPDATE "Environment" SET "currentVersionId" = 'race-env-v2', "status" = 'IN_REVIEW' WHERE "id" = $1 AND "currentVersionId" = $2`,
      [env.id, env.currentVersionId],
    );
    const decision = decideItem(
      t.db,
      { kind: "environment", id: env.id, versionId: env.currentVersionId!, decision: "ACCEPT", reason: "" },
      alice,
    ).then(
      () => "accepted",
      (error: unknown) => error,
    );
    await someoneWaitsOnALock(save.client, "the decision");
    await save.commit();

    expect(await decision).toMatchObject({ code: "CONFLICT" });
    expect(await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).toMatchObject({
      currentVersionId: "race-env-v2",
      status: "IN_REVIEW",
    });
  });
});

describe("undo", () => {
  it("does not re-accept checks another reviewer edited after the decision", async () => {
    const { project, scenario, validator, alice, bob } = await world();
    const seen = await currentVersionsOf(t.db, "scenario", scenario.id);
    await decideItem(t.db, { ...seen, decision: "ACCEPT", reason: "" }, alice);
    await decideItem(t.db, { ...seen, decision: "REJECT", reason: "check 1 is too loose" }, alice);
    await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: validator.currentVersionId!,
        code: "def check_func(final_state):\n    return True\n",
        message: "bob's rewrite",
      },
      bob,
      analyzeOk,
    );

    await expect(undoLastDecision(t.db, project.id, alice)).rejects.toMatchObject({ code: "CONFLICT" });
    const after = await isAcceptedOnCurrentChecks(scenario.id);
    expect(after.status).toBe("REJECTED");
    expect(await t.db.reviewDecision.count({ where: { targetId: scenario.id, decision: "UNDO" } })).toBe(0);
  });

  it("restores the decision's state while the checks are the ones it was made on", async () => {
    const { project, scenario, alice } = await world();
    const seen = await currentVersionsOf(t.db, "scenario", scenario.id);
    await decideItem(t.db, { ...seen, decision: "ACCEPT", reason: "" }, alice);
    await decideItem(t.db, { ...seen, decision: "REJECT", reason: "second thoughts" }, alice);
    await undoLastDecision(t.db, project.id, alice);
    expect(await isAcceptedOnCurrentChecks(scenario.id)).toEqual({ status: "ACCEPTED", consistent: true });
  });
});

/**
 * Bulk confirmation of the judge's verdicts: only unreviewed probes change, a list naming an
 * unknown probe writes nothing, and an override committed while the bulk action waits on its row
 * is kept (a second connection holds the override's transaction open to make the race certain).
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  actorOf,
  createEnvironment,
  createQualityCheck,
  createTestProject,
  createUser,
} from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { confirmJudgeVerdicts } from "./confirm-judge-verdicts";
import { reviewQualityProbe } from "./review-quality-probe";

const t = useTestDatabase();
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => undefined);
});

async function world(verdicts: ("PASS" | "WARNING" | "FAIL")[]) {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
  const check = await createQualityCheck(t.db, env.currentVersionId!, verdicts);
  const probes = [...check.probes].sort((a, b) => a.index - b.index).map((p) => p.id);
  return { alice: actorOf(await createUser(t.db, { role: "REVIEWER" })), probes };
}

const verdictsOf = async (ids: string[]) =>
  (await t.db.qualityProbe.findMany({ where: { id: { in: ids } }, orderBy: { index: "asc" } })).map(
    (p) => p.reviewerVerdict,
  );
const auditCount = (ids: string[]) =>
  t.db.reviewDecision.count({ where: { targetType: "QUALITY_PROBE", targetId: { in: ids } } });

describe("confirmJudgeVerdicts", () => {
  it("confirms the unreviewed probes and leaves judged ones as the reviewer set them", async () => {
    const { alice, probes } = await world(["PASS", "FAIL", "WARNING", "PASS"]);
    await reviewQualityProbe(t.db, { probeId: probes[1]!, verdict: "PASS" }, alice); // an override
    const result = await confirmJudgeVerdicts(t.db, { probeIds: [...probes, probes[0]!] }, alice);
    expect(result).toEqual({ confirmed: [probes[0], probes[2], probes[3]], alreadyReviewed: [probes[1]] });
    expect(await verdictsOf(probes)).toEqual(["PASS", "PASS", "WARNING", "PASS"]);
    const audit = await t.db.reviewDecision.findMany({
      where: { targetType: "QUALITY_PROBE", targetId: { in: probes } },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => [a.targetId, a.decision])).toEqual([
      [probes[1], "OVERRIDE"],
      [probes[0], "CONFIRM"],
      [probes[2], "CONFIRM"],
      [probes[3], "CONFIRM"],
    ]);
    // Run again: nothing left to confirm, nothing logged.
    expect(await confirmJudgeVerdicts(t.db, { probeIds: probes }, alice)).toEqual({
      confirmed: [],
      alreadyReviewed: probes,
    });
    expect(await auditCount(probes)).toBe(4);
  });

  it("refuses a list with an unknown probe and writes nothing", async () => {
    const { alice, probes } = await world(["PASS", "FAIL"]);
    await expect(
      confirmJudgeVerdicts(t.db, { probeIds: [probes[0]!, "no-such-probe"] }, alice),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await verdictsOf(probes)).toEqual([null, null]);
    expect(await auditCount(probes)).toBe(0);
  });

  it("keeps an override that commits while the bulk confirmation waits on the probe", async () => {
    const { alice, probes } = await world(["PASS", "FAIL", "PASS"]);
    const other = new pg.Client({ connectionString: t.url });
    clients.push(other);
    await other.connect();
    await other.query("BEGIN");
    await other.query(`UPDATE "QualityProbe" SET "reviewerVerdict" = 'PASS' WHERE id = $1`, [probes[1]]);
    const bulk = confirmJudgeVerdicts(t.db, { probeIds: probes }, alice);
    await waitUntilSomeoneWaitsOnALock(other);
    await other.query("COMMIT");
    expect(await bulk).toEqual({ confirmed: [probes[0], probes[2]], alreadyReviewed: [probes[1]] });
    expect(await verdictsOf(probes)).toEqual(["PASS", "PASS", "PASS"]);
    const logged = await t.db.reviewDecision.findMany({ where: { targetId: probes[1] } });
    expect(logged).toEqual([]);
  });
});

async function waitUntilSomeoneWaitsOnALock(client: pg.Client) {
  for (let i = 0; i < 500; i++) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
    );
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the bulk confirmation never waited on the held transaction");
}

/**
 * The Scenarios page's list: newest first, searched by task, scenario id and environment name or
 * env_id, each row with its own check and rollout counts; another project's scenarios never show.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  createEnvironment,
  createScenario,
  createTestProject,
  createTrajectory,
} from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { findScenarios } from "./get-scenario";

const t = useTestDatabase();
let projectId = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  projectId = (await createTestProject(t.db, "list")).id;
  const shop = await createEnvironment(t.db, projectId, { slug: "corner-shop", name: "Corner shop" });
  const bank = await createEnvironment(t.db, projectId, { slug: "city-bank", name: "City bank" });
  const check = "def check_func(final_state):\n    return True\n";
  ids.restock = (
    await createScenario(t.db, shop.id, { task: "Restock the apples", checks: [check, check] })
  ).id;
  ids.refund = (await createScenario(t.db, shop.id, { task: "Refund order 42" })).id;
  ids.open = (await createScenario(t.db, bank.id, { task: "Open a savings account", checks: [] })).id;
  for (let i = 0; i < 3; i++) await createTrajectory(t.db, ids.refund, { rolloutIndex: i });
  // Updated last: listed first.
  await t.db.scenario.update({ where: { id: ids.restock }, data: { task: "Restock the apples and pears" } });
  const other = await createTestProject(t.db, "elsewhere");
  const elsewhere = await createEnvironment(t.db, other.id, { name: "Corner shop elsewhere" });
  await createScenario(t.db, elsewhere.id, { task: "Refund order 43" });
});

describe("findScenarios", () => {
  it("matches % and _ in a search literally", async () => {
    expect(await findScenarios(t.db, projectId, { q: "%" })).toEqual([]);
    expect((await findScenarios(t.db, projectId, { q: "order_42" })).length).toBe(0);
    expect((await findScenarios(t.db, projectId, { q: "order 42" })).map((r) => r.id)).toEqual([ids.refund]);
  });

  it("lists the project's scenarios newest first with their check and rollout counts", async () => {
    const rows = await findScenarios(t.db, projectId, {});
    expect(rows.map((r) => r.id)).toEqual([ids.restock, ids.open, ids.refund]);
    const counts = Object.fromEntries(rows.map((r) => [r.id, r._count]));
    expect(counts[ids.restock!]).toEqual({ validators: 2, trajectories: 0 });
    expect(counts[ids.refund!]).toEqual({ validators: 1, trajectories: 3 });
    expect(counts[ids.open!]).toEqual({ validators: 0, trajectories: 0 });
    expect(rows[0]?.environment).toMatchObject({ slug: "corner-shop", name: "Corner shop" });
  });

  it("searches the task, the environment's name and its env_id, case-insensitively", async () => {
    const found = async (q: string) => (await findScenarios(t.db, projectId, { q })).map((r) => r.id).sort();
    expect(await found("REFUND")).toEqual([ids.refund]);
    expect(await found("city bank")).toEqual([ids.open]);
    expect(await found("corner-shop")).toEqual([ids.restock, ids.refund].sort());
    expect(await found("nothing like this")).toEqual([]);
  });
});

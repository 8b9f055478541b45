/**
 * The dataset page's row browser reads one page of a version at a time from Postgres: order,
 * paging, search and the split filter, bad input refused at the boundary, an unknown version a 404,
 * and a row's detail equal to the record the EnvScaler export writes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { parseInput } from "@/lib/core/parse-input";
import { toScenarioItem } from "@/lib/export/formats/envscaler";
import { loadExportEnvironments, streamExportScenarios } from "@/lib/export/server/load-export-input";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { seedProvenDataset } from "@/tests/proven-dataset";
import { VersionRowsInputSchema, VersionRowsQuerySchema } from "../version-rows.schema";
import { findVersionRows, getVersionRow } from "./find-version-rows";

const t = useTestDatabase();
let versionId = "";
let refundScenarioId = "";

const query = (raw: Record<string, unknown> = {}) => VersionRowsQuerySchema.parse(raw);

beforeAll(async () => {
  const refund = {
    task: "Refund   the\norder 42 to the customer's card",
    goldCalls: [{ name: "refund", arguments: { order: 42 } }],
    initialState: { orders: { "42": { paid: 10 } } },
  };
  const seeded = await seedProvenDataset(
    t.db,
    "rows",
    [
      {
        fields: { slug: "alpha-shop", name: "Alpha shop" },
        scenarios: [0, 1, 2, 3].map((i) => ({ task: `Restock shelf ${i} with apples` })),
      },
      {
        fields: { slug: "beta-bank", name: "Beta bank" },
        scenarios: [{ task: "Open savings account 0" }, { task: "Open savings account 1" }, refund],
      },
    ],
    { testRatio: 0.5 },
  );
  refundScenarioId = seeded.scenarios.at(-1)!.id;
  versionId = seeded.versionId;
});

describe("a dataset version's rows, paged in Postgres", () => {
  it("lists a page in export order with env ids, pins, split and proof status", async () => {
    const first = await findVersionRows(t.db, versionId, query({ pageSize: 3 }));
    expect(first.total).toBe(7);
    expect(first.page).toBe(1);
    expect(first.items.map((r) => r.envId)).toEqual(["alpha-shop", "alpha-shop", "alpha-shop"]);
    expect(first.items[0]).toMatchObject({
      environmentName: "Alpha shop",
      environmentVersion: 1,
      validatorVersions: [1],
      proofStatus: "VERIFIED",
      overridden: false,
      difficulty: { n: 0, successRate: null, pSignal: null },
      nearMiss: null,
    });
    const taskIds = first.items.map((r) => r.taskId);
    expect(taskIds).toEqual([...taskIds].sort());
    const third = await findVersionRows(t.db, versionId, query({ page: "3", pageSize: "3" }));
    expect(third.items).toHaveLength(1);
    expect(third.items[0]?.envId).toBe("beta-bank");
    const all = await findVersionRows(t.db, versionId, query({ pageSize: 100 }));
    const seen = [first, await findVersionRows(t.db, versionId, query({ page: 2, pageSize: 3 })), third]
      .flatMap((p) => p.items)
      .map((r) => r.scenarioId);
    expect(seen).toEqual(all.items.map((r) => r.scenarioId));
    // Split by environment: every row of one environment on one side.
    const sides = new Map(all.items.map((r) => [r.envId, r.split]));
    expect(all.items.every((r) => sides.get(r.envId) === r.split)).toBe(true);
    // Past the end: empty, with the total to go back by.
    expect(await findVersionRows(t.db, versionId, query({ page: 9, pageSize: 3 }))).toMatchObject({
      items: [],
      total: 7,
    });
  });

  it("searches task text, task ids and environments case-insensitively, and filters by split", async () => {
    const refund = await findVersionRows(t.db, versionId, query({ q: "REFUND" }));
    expect(refund.total).toBe(1);
    expect(refund.items[0]).toMatchObject({
      scenarioId: refundScenarioId,
      envId: "beta-bank",
      taskExcerpt: "Refund the order 42 to the customer's card",
    });
    expect((await findVersionRows(t.db, versionId, query({ q: "alpha shop" }))).total).toBe(4);
    expect((await findVersionRows(t.db, versionId, query({ q: "beta-bank" }))).total).toBe(3);
    expect((await findVersionRows(t.db, versionId, query({ q: refund.items[0]?.taskId }))).total).toBe(1);
    expect((await findVersionRows(t.db, versionId, query({ q: "no such words" }))).items).toEqual([]);
    // LIKE wildcards in the search are text, not patterns.
    expect((await findVersionRows(t.db, versionId, query({ q: "%" }))).total).toBe(0);
    expect((await findVersionRows(t.db, versionId, query({ q: "shelf _ with" }))).total).toBe(0);
    expect((await findVersionRows(t.db, versionId, query({ q: "customer's" }))).total).toBe(1);
    const all = await findVersionRows(t.db, versionId, query({ pageSize: 100 }));
    for (const split of ["TRAIN", "TEST"] as const) {
      const page = await findVersionRows(t.db, versionId, query({ split }));
      expect(page.total).toBe(all.items.filter((r) => r.split === split).length);
      expect(page.items.every((r) => r.split === split)).toBe(true);
    }
  });

  it("refuses a page below 1, a page size over the cap and an unknown split as bad input (400)", () => {
    const refused = (raw: Record<string, unknown>) => {
      try {
        parseInput(VersionRowsInputSchema, { id: versionId, ...raw });
      } catch (e) {
        return e instanceof AppError ? { code: e.code, status: e.httpStatus, message: e.message } : e;
      }
      return "accepted";
    };
    expect(refused({ page: "0" })).toMatchObject({ code: "INVALID_INPUT", status: 400, message: /page/ });
    expect(refused({ page: "-2" })).toMatchObject({ status: 400 });
    expect(refused({ page: "1.5" })).toMatchObject({ status: 400 });
    expect(refused({ pageSize: "101" })).toMatchObject({ code: "INVALID_INPUT", message: /pageSize/ });
    expect(refused({ pageSize: "0" })).toMatchObject({ status: 400 });
    expect(refused({ split: "VALIDATION" })).toMatchObject({ status: 400, message: /split/ });
    expect(refused({ q: "x".repeat(201) })).toMatchObject({ status: 400 });
    expect(refused({ page: "2", pageSize: "100" })).toBe("accepted");
  });

  it("answers an unknown version, or a scenario not in the version, with NOT_FOUND (404)", async () => {
    for (const read of [
      () => findVersionRows(t.db, "no-such-version", query()),
      () => getVersionRow(t.db, "no-such-version", refundScenarioId),
      () => getVersionRow(t.db, versionId, "no-such-scenario"),
    ]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "NOT_FOUND", httpStatus: 404 });
    }
  });

  it("shows a row as the EnvScaler export writes it", async () => {
    const detail = await getVersionRow(t.db, versionId, refundScenarioId);
    expect(detail.row).toMatchObject({ envId: "beta-bank", scenarioId: refundScenarioId });
    const envs = await loadExportEnvironments(t.db, versionId);
    const written = [];
    for await (const s of streamExportScenarios(t.db, versionId, envs, false))
      if (s.taskId === detail.row.taskId) written.push(toScenarioItem(s, "Counter"));
    expect(written).toHaveLength(1);
    expect(detail.exported).toEqual(written[0]);
    expect(detail.exported).toMatchObject({
      task: "Refund   the\norder 42 to the customer's card",
      init_config: { orders: { "42": { paid: 10 } } },
      gold_calls: [{ name: "refund", arguments: { order: 42 } }],
    });
    expect(detail.exported.checklist_with_func).toEqual([
      {
        check_item: "check 1",
        check_func: "def check_func(final_state):\n    return final_state.get('count') == 1\n",
      },
    ]);
  });
});

describe("a version pinning two versions of one environment", () => {
  it("names the older pinned version slug@vN on its rows and in a row's detail", async () => {
    const project = await createTestProject(t.db, "two-pins");
    const env = await createEnvironment(t.db, project.id, { slug: "gamma-desk" });
    const old = await createScenario(t.db, env.id, { task: "Made on v1" });
    const v2 = await t.db.environmentVersion.create({
      data: {
        environmentId: env.id,
        version: 2,
        className: "Counter",
        source: "x",
        sourceHash: "x2",
        producedBy: "test",
      },
    });
    await t.db.environment.update({ where: { id: env.id }, data: { currentVersionId: v2.id } });
    const recent = await createScenario(t.db, env.id, { task: "Made on v2" });
    const dataset = await t.db.dataset.create({ data: { projectId: project.id, name: "two-pins" } });
    const version = await t.db.datasetVersion.create({
      data: { datasetId: dataset.id, version: 1, seed: 1 },
    });
    for (const s of [old, recent])
      await t.db.datasetItem.create({
        data: {
          datasetVersionId: version.id,
          scenarioId: s.id,
          environmentVersionId: s.environmentVersionId,
          validatorVersionIds: [],
          split: "TRAIN",
        },
      });
    const page = await findVersionRows(t.db, version.id, query());
    expect(Object.fromEntries(page.items.map((r) => [r.scenarioId, r.envId]))).toEqual({
      [old.id]: "gamma-desk@v1",
      [recent.id]: "gamma-desk",
    });
    // The newer pinned version first, with or without a search.
    expect(page.items.map((r) => r.scenarioId)).toEqual([recent.id, old.id]);
    const searched = await findVersionRows(t.db, version.id, query({ q: "made on" }));
    expect(searched.items.map((r) => r.scenarioId)).toEqual([recent.id, old.id]);
    expect((await getVersionRow(t.db, version.id, old.id)).row.envId).toBe("gamma-desk@v1");
    expect((await getVersionRow(t.db, version.id, recent.id)).row.envId).toBe("gamma-desk");
  });
});

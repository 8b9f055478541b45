import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import {
  createEnvironment,
  createManyEnvironments,
  createScenario,
  createTestProject,
} from "@/prisma/seed/factories";
import { ListEnvironmentsQuerySchema } from "../environment.schema";
import { findDomains, findEnvironments } from "./find-environments";
import { getEnvironmentOrThrow } from "./get-environment";

const t = useTestDatabase();
const query = (q: Record<string, unknown> = {}) => ListEnvironmentsQuerySchema.parse(q);

describe("findEnvironments", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await createTestProject(t.db)).id;
    await createEnvironment(t.db, projectId, {
      name: "Hospital Asset Tracker",
      slug: "hospital",
      domain: "healthcare",
      status: "ACCEPTED",
    });
    await createEnvironment(t.db, projectId, {
      name: "Library Lending",
      slug: "library",
      domain: "education",
      status: "IN_REVIEW",
    });
    await createEnvironment(t.db, projectId, {
      name: "Hospital Pharmacy",
      slug: "pharmacy",
      domain: "healthcare",
      status: "REJECTED",
    });
  });

  it("searches by name, case-insensitively", async () => {
    const page = await findEnvironments(t.db, projectId, query({ q: "hOsPiTaL" }));
    expect(page.total).toBe(2);
    expect(page.items.map((e) => e.slug).sort()).toEqual(["hospital", "pharmacy"]);
  });

  it("matches % and _ literally: a search for them is not a wildcard", async () => {
    expect((await findEnvironments(t.db, projectId, query({ q: "%" }))).total).toBe(0);
    expect((await findEnvironments(t.db, projectId, query({ q: "h_spital" }))).total).toBe(0);
  });

  it("filters by status and domain together with search", async () => {
    expect(
      (await findEnvironments(t.db, projectId, query({ status: "IN_REVIEW" }))).items.map((e) => e.slug),
    ).toEqual(["library"]);
    const both = await findEnvironments(
      t.db,
      projectId,
      query({ q: "hospital", status: "ACCEPTED", domain: "healthcare" }),
    );
    expect(both.items.map((e) => e.slug)).toEqual(["hospital"]);
  });

  it("counts each listed environment's scenarios", async () => {
    const counted = await createEnvironment(t.db, projectId, { name: "Counted desk", slug: "counted" });
    for (let i = 0; i < 3; i++) await createScenario(t.db, counted.id);
    const page = await findEnvironments(t.db, projectId, query({}));
    const count = (slug: string) => page.items.find((e) => e.slug === slug)?.scenarioCount;
    expect(count("counted")).toBe(3);
    expect(count("library")).toBe(0);
    await t.db.environment.delete({ where: { id: counted.id } });
  });

  it("never returns another project's environments", async () => {
    const other = await createTestProject(t.db, "other");
    await createEnvironment(t.db, other.id, { name: "Hospital elsewhere" });
    expect((await findEnvironments(t.db, projectId, query({ q: "elsewhere" }))).total).toBe(0);
  });

  it("lists domains of the project", async () => {
    expect(await findDomains(t.db, projectId)).toEqual(["education", "healthcare"]);
  });

  it("finds an environment by id or slug and throws NOT_FOUND otherwise", async () => {
    const env = await getEnvironmentOrThrow(t.db, projectId, "library");
    expect(env.currentVersion?.className).toBe("Counter");
    await expect(getEnvironmentOrThrow(t.db, projectId, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("findEnvironments with 10,000 rows", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await createTestProject(t.db, "big")).id;
    await createManyEnvironments(t.db, projectId, 10_000, (i) => ({
      name: i % 100 === 0 ? `Needle environment ${i}` : `Haystack environment ${i}`,
      status: i % 2 ? "ACCEPTED" : "DRAFT",
      updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
  });

  it("pages through every row exactly once, newest first", async () => {
    const first = await findEnvironments(t.db, projectId, query({ pageSize: 100 }));
    expect(first.total).toBe(10_000);
    expect(first.items[0]?.name).toBe("Haystack environment 9999");
    const last = await findEnvironments(t.db, projectId, query({ pageSize: 100, page: 100 }));
    expect(last.items).toHaveLength(100);
    expect(last.items.at(-1)?.name).toBe("Needle environment 0");
    const beyond = await findEnvironments(t.db, projectId, query({ pageSize: 100, page: 101 }));
    expect(beyond.items).toEqual([]);
  });

  it("combines search and status filter on the large table", async () => {
    const page = await findEnvironments(t.db, projectId, query({ q: "needle", status: "DRAFT" }));
    expect(page.total).toBe(100);
  });
});

describe("list query validation", () => {
  it("rejects unknown statuses and oversized pages with a readable error", () => {
    const r = ListEnvironmentsQuerySchema.safeParse({ status: "DONE", pageSize: "1000" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(["status", "pageSize"]);
  });
});

import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { ELIGIBLE_PAGE_SIZE, EligibleEnvironmentsQuerySchema } from "../eligible-environments.schema";
import { findEligibleEnvironments } from "./find-eligible-environments";

const t = useTestDatabase();
const pad = (i: number) => String(i).padStart(3, "0");

describe("the dataset forms' environment picker", () => {
  it("lists accepted environments and those edited since acceptance, with their accepted-scenario counts", async () => {
    const project = await createTestProject(t.db, "eligible-rules");
    const accepted = await createEnvironment(t.db, project.id, { slug: "a-accepted", status: "ACCEPTED" });
    const edited = await createEnvironment(t.db, project.id, { slug: "b-edited", status: "IN_REVIEW" });
    await t.db.environment.update({
      where: { id: edited.id },
      data: { acceptedVersionId: edited.currentVersionId },
    });
    const rejected = await createEnvironment(t.db, project.id, { slug: "c-rejected", status: "REJECTED" });
    await t.db.environment.update({
      where: { id: rejected.id },
      data: { acceptedVersionId: rejected.currentVersionId },
    });
    await createEnvironment(t.db, project.id, { slug: "d-draft", status: "DRAFT" });
    const elsewhere = await createTestProject(t.db, "eligible-elsewhere");
    await createEnvironment(t.db, elsewhere.id, { slug: "a-theirs", status: "ACCEPTED" });
    for (const status of ["ACCEPTED", "ACCEPTED", "DRAFT", "REJECTED"] as const)
      await createScenario(t.db, accepted.id, { status });

    const page = await findEligibleEnvironments(t.db, project.id);
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: ELIGIBLE_PAGE_SIZE });
    expect(page.items.map((e) => [e.slug, e.acceptedScenarios])).toEqual([
      ["a-accepted", 2],
      ["b-edited", 0],
    ]);
  });

  it("answers one page at a time, searched by name or env_id in any case, with the total of all matches", async () => {
    const project = await createTestProject(t.db, "eligible-pages");
    const count = ELIGIBLE_PAGE_SIZE + 10;
    for (let i = 0; i < count; i++)
      await createEnvironment(t.db, project.id, {
        slug: `env-${pad(i)}`,
        name: i % 20 === 7 ? `Harbour Library ${i}` : `Shop ${i}`,
        status: "ACCEPTED",
      });
    const first = await findEligibleEnvironments(t.db, project.id);
    expect(first.total).toBe(count);
    expect(first.items).toHaveLength(ELIGIBLE_PAGE_SIZE);
    expect(first.items[0]?.slug).toBe("env-000");
    const second = await findEligibleEnvironments(t.db, project.id, { q: "", page: 2 });
    expect(second.items.map((e) => e.slug)).toEqual(
      Array.from({ length: 10 }, (_, i) => `env-${pad(ELIGIBLE_PAGE_SIZE + i)}`),
    );
    const byName = await findEligibleEnvironments(t.db, project.id, { q: "harbour LIBRARY", page: 1 });
    expect(byName.items.map((e) => e.slug)).toEqual(["env-007", "env-027", "env-047"]);
    expect(byName.total).toBe(3);
    const bySlug = await findEligibleEnvironments(t.db, project.id, { q: "ENV-05", page: 1 });
    expect(bySlug.items.map((e) => e.slug)).toEqual(Array.from({ length: 10 }, (_, i) => `env-05${i}`));
    for (const q of ["no-such-env", "%", "env_0"])
      expect(await findEligibleEnvironments(t.db, project.id, { q, page: 1 })).toMatchObject({
        items: [],
        total: 0,
      });
    const past = await findEligibleEnvironments(t.db, project.id, { q: "", page: 9 });
    expect(past).toMatchObject({ items: [], total: count });
  });

  it("refuses a page below 1, a page that is not a number and an overlong search", () => {
    for (const bad of [{ page: "0" }, { page: "two" }, { q: "x".repeat(201) }])
      expect(EligibleEnvironmentsQuerySchema.safeParse(bad).success).toBe(false);
    expect(EligibleEnvironmentsQuerySchema.parse({ q: "  lib  " })).toEqual({ q: "lib", page: 1 });
  });
});

import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createTestProject } from "@/prisma/seed/factories";
import { findVersionSources } from "./get-environment-head";

const t = useTestDatabase();

describe("findVersionSources", () => {
  it("returns the source of each asked-for version of this environment only", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { source: "class Counter:\n    pass\n" });
    const other = await createEnvironment(t.db, project.id, { source: "class Other:\n    pass\n" });
    await t.db.environmentVersion.create({
      data: {
        environmentId: env.id,
        version: 2,
        className: "Counter",
        source: "v2",
        sourceHash: "h2",
        producedBy: "test",
      },
    });
    const sources = await findVersionSources(t.db, env.id, [1, 2, 9]);
    expect([...sources.entries()].sort()).toEqual([
      [1, "class Counter:\n    pass\n"],
      [2, "v2"],
    ]);
    expect((await findVersionSources(t.db, other.id, [2])).size).toBe(0);
  });
});

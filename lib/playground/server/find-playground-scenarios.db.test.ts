import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { findPlaygroundScenarios } from "./find-playground-scenarios";

const t = useTestDatabase();

describe("findPlaygroundScenarios", () => {
  it("lists the environment's scenarios oldest first, a state that is not an object as empty", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id);
    const other = await createEnvironment(t.db, project.id);
    const first = await createScenario(t.db, env.id, { initialState: { count: 3 } });
    const second = await createScenario(t.db, env.id);
    await t.db.scenario.update({ where: { id: second.id }, data: { initialState: [1, 2] } });
    await createScenario(t.db, other.id);
    expect(await findPlaygroundScenarios(t.db, env.id)).toEqual([
      { id: first.id, externalId: first.externalId, initialState: { count: 3 } },
      { id: second.id, externalId: second.externalId, initialState: {} },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { findValidatorEnvironmentId } from "./find-validator-environment";

const t = useTestDatabase();

describe("findValidatorEnvironmentId", () => {
  it("finds the environment of the validator's scenario, and refuses an unknown validator", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id);
    const scenario = await createScenario(t.db, env.id);
    const validator = await t.db.validator.findFirstOrThrow({ where: { scenarioId: scenario.id } });
    expect(await findValidatorEnvironmentId(t.db, validator.id)).toBe(env.id);
    await expect(findValidatorEnvironmentId(t.db, "no-such-validator")).rejects.toThrow();
  });
});

/**
 * A save that merged a concurrent edit records both parents (environment
 * code and check functions), and a check's checklist text is saved with its code.
 */
import { describe, expect, it } from "vitest";
import { mergeThreeWay, applyChoices } from "@/lib/environments/merge";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import { createEnvironment, createScenario, createTestProject, createUser } from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";
import { saveEnvironmentVersion } from "./save-environment-version";

const t = useTestDatabase();
const sandbox = analyzeOk;

async function world() {
  const project = await createTestProject(t.db);
  const env = await createEnvironment(t.db, project.id);
  const users = await Promise.all([createUser(t.db), createUser(t.db)]);
  const [a, b] = users.map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role }));
  return { project, env, a: a!, b: b! };
}

describe("saving a merge", () => {
  it("keeps both edits and records both parents of the environment version", async () => {
    const { env, a, b } = await world();
    const v1 = await t.db.environmentVersion.findUniqueOrThrow({ where: { id: env.currentVersionId! } });
    const theirs = v1.source.replace('"""Return the counter."""', '"""Return the current count."""');
    const v2 = await saveEnvironmentVersion(
      t.db,
      { environmentId: env.id, baseVersionId: v1.id, source: theirs, message: "docstring" },
      a,
      sandbox,
    );
    const mine = `${v1.source}# b's comment\n`;
    await expect(
      saveEnvironmentVersion(
        t.db,
        { environmentId: env.id, baseVersionId: v1.id, source: mine, message: "comment" },
        b,
        sandbox,
      ),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    const merged = applyChoices(mergeThreeWay(v1.source, mine, theirs), []);
    expect(merged).toContain("Return the current count.");
    expect(merged).toContain("# b's comment");
    const v3 = await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: v2.versionId,
        source: merged!,
        message: "comment, merged",
        mergeBaseVersionId: v1.id,
      },
      b,
      sandbox,
    );
    expect(await t.db.environmentVersion.findUniqueOrThrow({ where: { id: v3.versionId } })).toMatchObject({
      parentVersionId: v2.versionId,
      mergedParentVersionId: v1.id,
      source: merged,
    });
    const other = await createEnvironment(t.db, env.projectId);
    await expect(
      saveEnvironmentVersion(
        t.db,
        {
          environmentId: env.id,
          baseVersionId: v3.versionId,
          source: `${merged}\n# x\n`,
          message: "x",
          mergeBaseVersionId: other.currentVersionId!,
        },
        b,
        sandbox,
      ),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("records both parents of a check function, and saves its checklist text with it", async () => {
    const { env, a, b } = await world();
    const scenario = await createScenario(t.db, env.id, {
      checks: ["def check_func(final_state):\n    x = 1\n    return final_state.get('count') == 1\n"],
    });
    const validator = await t.db.validator.findFirstOrThrow({
      where: { scenarioId: scenario.id },
      include: { currentVersion: true },
    });
    const v1 = validator.currentVersion!;
    const v2 = await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: v1.id,
        code: v1.code.replace("x = 1", "x = 2"),
        message: "theirs",
      },
      a,
      sandbox,
    );
    const v3 = await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: v2.versionId,
        code: v1.code.replace("x = 1", "x = 2").replace("== 1", "== 2"),
        message: "mine, merged",
        mergeBaseVersionId: v1.id,
        checkItem: "The count is two",
      },
      b,
      sandbox,
    );
    expect(await t.db.validatorVersion.findUniqueOrThrow({ where: { id: v3.versionId } })).toMatchObject({
      parentVersionId: v2.versionId,
      mergedParentVersionId: v1.id,
    });
    expect((await t.db.validator.findUniqueOrThrow({ where: { id: validator.id } })).checkItem).toBe(
      "The count is two",
    );
    expect((await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).checklist).toEqual([
      "The count is two",
    ]);
    // The text alone is a change worth a version; nothing at all is refused.
    const v4 = await saveValidatorVersion(
      t.db,
      {
        validatorId: validator.id,
        baseVersionId: v3.versionId,
        code: v1.code.replace("x = 1", "x = 2").replace("== 1", "== 2"),
        message: "wording",
        checkItem: "The count equals two",
      },
      b,
      sandbox,
    );
    expect(v4.version).toBe(4);
    await expect(
      saveValidatorVersion(
        t.db,
        {
          validatorId: validator.id,
          baseVersionId: v4.versionId,
          code: v1.code.replace("x = 1", "x = 2").replace("== 1", "== 2"),
          message: "none",
          checkItem: "The count equals two",
        },
        b,
        sandbox,
      ),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

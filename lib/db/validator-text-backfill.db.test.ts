/**
 * The migration that versions the checklist text with the check code backfills existing versions
 * from the review log (the text each EDIT recorded for the version it created or replaced), and
 * the rest from the validator's current text. Its UPDATE statements are run here on versions whose
 * text was cleared, as they were before the column existed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { saveValidatorVersion } from "@/lib/scenarios/server/save-validator-version";
import {
  actorOf,
  createEnvironment,
  createScenario,
  createTestProject,
  createUser,
} from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";

const t = useTestDatabase();
const MIGRATION = path.resolve(
  import.meta.dirname,
  "../../prisma/migrations/20261204090000_immutable_export_text/migration.sql",
);

describe("backfill of ValidatorVersion.checkItem", () => {
  it("gives each existing version the text it was written for", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id);
    const scenario = await createScenario(t.db, env.id, {
      checks: ["def check_func(s):\n    return 1\n", "def check_func(s):\n    return 2\n"],
    });
    const [edited, untouched] = await t.db.validator.findMany({
      where: { scenarioId: scenario.id },
      orderBy: { position: "asc" },
    });
    const user = await createUser(t.db);
    const actor = actorOf(user);
    const v2 = await saveValidatorVersion(
      t.db,
      {
        validatorId: edited!.id,
        baseVersionId: edited!.currentVersionId!,
        code: "def check_func(s):\n    return 3\n",
        checkItem: "reworded",
        message: "reword",
      },
      actor,
      analyzeOk,
    );
    const v3 = await saveValidatorVersion(
      t.db,
      {
        validatorId: edited!.id,
        baseVersionId: v2.versionId,
        code: "def check_func(s):\n    return 4\n",
        message: "code only",
      },
      actor,
      analyzeOk,
    );

    const ids = [edited!.currentVersionId!, v2.versionId, v3.versionId, untouched!.currentVersionId!];
    await t.db.$executeRawUnsafe(`ALTER TABLE "ValidatorVersion" ALTER COLUMN "checkItem" DROP NOT NULL`);
    await t.db.$executeRaw`UPDATE "ValidatorVersion" SET "checkItem" = NULL WHERE "id" = ANY(${ids})`;
    const backfill = readFileSync(MIGRATION, "utf8")
      .split(/;\s*\n/)
      .map((s) => s.replace(/^--.*$/gm, "").trim())
      .filter((s) => s.startsWith(`UPDATE "ValidatorVersion"`));
    expect(backfill).toHaveLength(3);
    for (const statement of backfill) await t.db.$executeRawUnsafe(statement);
    await t.db.$executeRawUnsafe(`ALTER TABLE "ValidatorVersion" ALTER COLUMN "checkItem" SET NOT NULL`);

    const rows = await t.db.validatorVersion.findMany({ where: { id: { in: ids } } });
    const textOf = (id: string) => rows.find((r) => r.id === id)?.checkItem;
    expect(ids.map(textOf)).toEqual(["check 1", "reworded", "reworded", "check 2"]);
  });
});

/**
 * New code and the staleness of the proofs made on the old code are one write: a crash between
 * them (injected by a trigger that fails the STALE update) leaves either nothing saved or nothing
 * VERIFIED on changed code — for a code save followed by what the editor does next, and for an
 * import as a new version.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { saveEnvironmentVersion } from "@/lib/environments/server/save-environment-version";
import { importFiles } from "@/lib/import/server/import-files";
import { createSandboxRunner } from "@/lib/sandbox";
import {
  actorOf,
  createEnvironment,
  createScenario,
  createTestProject,
  createUser,
  proveScenario,
} from "@/prisma/seed/factories";
import { analyzeOk } from "@/tests/analyze-ok";
import { useTestDatabase } from "@/tests/db";
import { findStaleScenarios } from "./mark-proofs-stale";
import { reproveAfterEdit } from "./reprove-after-edit";

const t = useTestDatabase();
const runner = createSandboxRunner();
afterAll(() => runner.close());
const send = () => Promise.resolve(null);

async function failStaleMarks() {
  await t.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_fail_stale() RETURNS trigger AS $$
    BEGIN
      IF NEW."proofStatus" = 'STALE' AND OLD."proofStatus" <> 'STALE' THEN
        RAISE EXCEPTION 'injected crash while marking proofs stale';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await t.db.$executeRawUnsafe(
    `CREATE TRIGGER test_fail_stale BEFORE UPDATE ON "Scenario" FOR EACH ROW EXECUTE FUNCTION test_fail_stale()`,
  );
}
afterEach(async () => {
  await t.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_fail_stale ON "Scenario"`);
});

/** Scenarios of the environment that say VERIFIED although their latest proof is of other versions. */
async function verifiedOnChangedCode(environmentId: string) {
  const stale = await findStaleScenarios(t.db, { environmentId });
  return t.db.scenario.count({ where: { id: { in: stale }, proofStatus: "VERIFIED" } });
}

describe("proofs go stale in the same transaction as the new code", () => {
  it("a code save", async () => {
    const project = await createTestProject(t.db, "stale-save");
    const env = await createEnvironment(t.db, project.id);
    const scenario = await createScenario(t.db, env.id);
    await proveScenario(t.db, scenario.id);
    const user = await createUser(t.db, { role: "REVIEWER" });
    await failStaleMarks();

    // What the code editor's action does: save, then re-queue the proofs.
    const saved = await saveEnvironmentVersion(
      t.db,
      {
        environmentId: env.id,
        baseVersionId: env.currentVersionId!,
        source: "class Counter:\n    pass\n",
        message: "edit",
      },
      actorOf(user),
      analyzeOk,
    ).then(
      () => true,
      () => false,
    );
    await reproveAfterEdit(t.db, { environmentId: env.id, actorId: user.id }, send);

    expect(await verifiedOnChangedCode(env.id)).toBe(0);
    if (!saved)
      expect((await t.db.environment.findUniqueOrThrow({ where: { id: env.id } })).currentVersionId).toBe(
        env.currentVersionId,
      );
  });

  it("an import as a new version of an existing environment", async () => {
    const { id: projectId } = await createTestProject(t.db, "stale-import");
    const deps = { sandbox: runner, send };
    const first = await importFiles(t.db, deps, projectId, files("List notes."));
    expect(first.ok).toBe(true);
    const env = await t.db.environment.findFirstOrThrow({ where: { projectId, slug: "notes" } });
    const scenario = await t.db.scenario.findFirstOrThrow({ where: { environmentId: env.id } });
    await proveScenario(t.db, scenario.id);
    await failStaleMarks();

    await importFiles(t.db, deps, projectId, files("List all notes."), { onExisting: "new-version" }).catch(
      () => null,
    );

    expect(await verifiedOnChangedCode(env.id)).toBe(0);
  });
});

const files = (doc: string) => [
  {
    name: "notes/environment.py",
    text: `class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def list_notes(self) -> dict:\n        """${doc}"""\n        return {'success': True, 'data': self.notes}\n`,
  },
  {
    name: "notes/scenarios.json",
    text: JSON.stringify([
      {
        task_id: "n1",
        init_config: { notes: {} },
        task: "List the notes.",
        checklist_with_func: [
          { check_item: "Empty?", check_func: "def check_func(final_state):\n    return True\n" },
        ],
      },
    ]),
  },
];

/**
 * Re-importing an environment that exists is refused with a choice, and then
 * imports it under a new slug or as a new version of the existing one (back in review, keeping
 * the accepted version and the existing scenarios, whose proofs go stale and are re-run).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createSandboxRunner } from "@/lib/sandbox";
import { executeProofRun, ProofRunInputSchema } from "@/lib/scenarios/server/proof-run";
import { createTestProject } from "@/prisma/seed/factories";
import { useTestDatabase } from "@/tests/db";
import { skipNearMisses } from "@/tests/proof-config";
import { type ImportDeps, importFiles } from "./import-files";

const t = useTestDatabase();
const sandbox = createSandboxRunner();
const deps: ImportDeps = { sandbox, send: () => Promise.resolve(null) };
afterAll(() => sandbox.close());
const proofRunScenarios = async (runId: string | null) =>
  ProofRunInputSchema.parse((await t.db.pipelineRun.findUniqueOrThrow({ where: { id: runId ?? "" } })).input)
    .scenarioIds;

const source = (doc: string) =>
  `class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def list_notes(self) -> dict:\n        """${doc}"""\n        return {'success': True, 'data': self.notes}\n`;
const scenario = (id: string) => ({
  task_id: id,
  init_config: { notes: {} },
  task: "List the notes.",
  checklist_with_func: [
    { check_item: "Empty?", check_func: "def check_func(final_state):\n    return True\n" },
  ],
});
const files = (doc: string, ids: string[]) => [
  { name: "notes/environment.py", text: source(doc) },
  { name: "notes/scenarios.json", text: JSON.stringify(ids.map(scenario)) },
];

describe("re-importing an existing environment", () => {
  it("offers the choice, then imports under a new slug or as a new version", async () => {
    const { id: projectId } = await createTestProject(t.db, "reimport");
    const first = await importFiles(t.db, deps, projectId, files("List notes.", ["n1"]));
    expect(first.ok && first.value.imported).toEqual([
      expect.objectContaining({ slug: "notes", version: 1, asNewVersion: false }),
    ]);
    // n1 gets a proof against version 1 (failed: the files carry no gold), which version 2 makes stale.
    await skipNearMisses(t.db, first.ok ? first.value.proofRunId! : "");
    await executeProofRun(t.db, first.ok ? first.value.proofRunId! : "", {
      sandbox,
      llmFor: createRunLlmFactory(t.db),
    });
    const env = await t.db.environment.findFirstOrThrow({ where: { projectId, slug: "notes" } });
    await t.db.environment.update({ where: { id: env.id }, data: { status: "ACCEPTED" } });

    const refused = await importFiles(t.db, deps, projectId, files("List all notes.", ["n1", "n2"]));
    expect(refused.ok ? null : refused.error).toMatchObject({
      existing: true,
      record: "notes",
      field: "env_id",
    });

    const renamed = await importFiles(t.db, deps, projectId, files("List all notes.", ["n1"]), {
      onExisting: "rename",
    });
    expect(renamed.ok && renamed.value.imported).toEqual([
      expect.objectContaining({ slug: "notes-2", version: 1, asNewVersion: false }),
    ]);

    const versioned = await importFiles(t.db, deps, projectId, files("List all notes.", ["n1", "n2"]), {
      onExisting: "new-version",
    });
    expect(versioned.ok && versioned.value).toMatchObject({
      scenarios: 1,
      imported: [{ slug: "notes", id: env.id, version: 2, asNewVersion: true }],
    });
    const after = await t.db.environment.findUniqueOrThrow({
      where: { id: env.id },
      include: { currentVersion: true, scenarios: { orderBy: { externalId: "asc" } } },
    });
    expect(after).toMatchObject({ status: "IN_REVIEW", acceptedVersionId: env.currentVersionId });
    expect(after.currentVersion).toMatchObject({
      version: 2,
      parentVersionId: env.currentVersionId,
      producedBy: "import",
    });
    expect(after.currentVersion?.source).toContain("List all notes.");
    expect(
      after.scenarios.map((s) => [
        s.externalId,
        s.environmentVersionId === after.currentVersionId,
        s.proofStatus,
      ]),
    ).toEqual([
      ["n1", false, "STALE"],
      ["n2", true, "PENDING"],
    ]);
    // One proof run proves the new scenario and re-proves the old one against the new code.
    expect((await proofRunScenarios(versioned.ok ? versioned.value.proofRunId : null)).sort()).toEqual(
      after.scenarios.map((s) => s.id).sort(),
    );
  });
});

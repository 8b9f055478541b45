/**
 * Imports earn their trust: whatever a file says about itself (an `envstudio.source_hash`, a
 * version), an import lands in review with its proof pending, a proof run is enqueued for it, and
 * it cannot enter a dataset as verified until this studio's sandbox proved it. Real Postgres, real
 * sandbox (the proof run is executed here as the worker would).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { writeDatasetExport } from "@/lib/export/server/run-export";
import type { JobSender } from "@/lib/jobs/server/send-job";
import { decideItem } from "@/lib/review/server/decide-item";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { PROOF_JOB } from "@/lib/scenarios/scenario-jobs";
import { executeProofRun } from "@/lib/scenarios/server/proof-run";
import {
  acceptAndProveScenarios,
  createTestProject,
  createUser,
  currentVersionsOf,
} from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { skipNearMisses } from "@/tests/proof-config";
import { importFiles } from "./import-files";

const t = useTestDatabase();
let sandbox: SandboxRunner;
const work = mkdtempSync(path.join(tmpdir(), "import-trust-"));
const sent: { job: string; payload: unknown }[] = [];
const send: JobSender = (def, payload) => {
  sent.push({ job: def.name, payload });
  return Promise.resolve(null);
};

beforeAll(() => {
  sandbox = createSandboxRunner();
});
afterAll(async () => {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
});

const NOTES =
  'class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def add_note(self, key: str, text: str) -> dict:\n        """Add a note."""\n        self.notes[key] = text\n        return {\'success\': True}\n';

/** An EnvScaler pair that claims to be this studio's own, already reviewed export. */
function forgedFiles() {
  const env = {
    notes: {
      env_id: "notes",
      environment_summary: "Notes",
      env_class_name: "Notes",
      env_class_code: NOTES,
      envstudio: { domain: "office", version: 3, source_hash: "not-a-hash", metadata: { env_id: "notes" } },
    },
  };
  const scenarios = [
    {
      env_id: "notes",
      env_class_name: "Notes",
      task_id: "n1",
      init_config: { notes: {} },
      task: "Add a note 'a' saying 'x'.",
      checklist: ["Was the note added?"],
      checklist_with_func: [
        { check_item: "Was the note added?", check_func: "def check_func(final_state):\n    return True\n" },
      ],
      gold_calls: [{ name: "add_note", arguments: { key: "a", text: "x" } }],
      split: "train",
      envstudio: { validator_versions: [1] },
    },
  ];
  return [
    { name: "env_metadata.json", text: JSON.stringify(env) },
    { name: "scenario_metadata.json", text: JSON.stringify(scenarios) },
  ];
}

const proofDeps = () => ({ sandbox, llmFor: createRunLlmFactory(t.db) });
const reviewer = async (): Promise<SessionUser> => {
  const u = await createUser(t.db, { role: "REVIEWER" });
  return { id: u.id, email: u.email, name: u.name, role: u.role };
};

describe("imports earn their trust", () => {
  it("a self-declared studio export with a `return True` check is neither accepted nor verified, and enters a dataset only with --allow-unverified", async () => {
    const { id: projectId } = await createTestProject(t.db, "forged");
    const result = await importFiles(t.db, { sandbox, send }, projectId, forgedFiles());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const env = await t.db.environment.findFirstOrThrow({ where: { projectId } });
    const scenario = await t.db.scenario.findFirstOrThrow({ where: { environmentId: env.id } });
    expect(env.status).toBe("IN_REVIEW");
    expect(scenario).toMatchObject({ status: "IN_REVIEW", proofStatus: "PENDING" });
    // The import asked for a proof of what it wrote.
    expect(sent).toContainEqual({ job: PROOF_JOB.name, payload: { runId: result.value.proofRunId } });

    // Reviewers accept in this studio; the pending proof still keeps it out of a verified dataset.
    const actor = await reviewer();
    await decideItem(
      t.db,
      { ...(await currentVersionsOf(t.db, "environment", env.id)), decision: "ACCEPT", reason: "" },
      actor,
    );
    // Accepting before the proof ran is a risky accept: it needs a written reason.
    await expect(
      decideItem(
        t.db,
        { ...(await currentVersionsOf(t.db, "scenario", scenario.id)), decision: "ACCEPT", reason: "" },
        actor,
      ),
    ).rejects.toThrow(/proof has not run/);
    await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "scenario", scenario.id)),
        decision: "ACCEPT",
        reason: "the task reads right; the proof will decide",
      },
      actor,
    );
    await expect(createDatasetVersion(t.db, { projectId, name: "forged" })).rejects.toThrow(
      /No accepted, verified scenarios/,
    );

    // The studio's proof finds the check passes without any work, and sends the scenario back to review.
    await skipNearMisses(t.db, result.value.proofRunId!);
    await executeProofRun(t.db, result.value.proofRunId!, proofDeps());
    const proven = await t.db.scenario.findUniqueOrThrow({ where: { id: scenario.id } });
    expect(proven).toMatchObject({ proofStatus: "FAILED", status: "IN_REVIEW" });
    expect(JSON.stringify(proven.proofReasons)).toContain("PASSES_WITHOUT_WORK");

    // Accepted again by a reviewer's explicit decision: still only with --allow-unverified.
    await decideItem(
      t.db,
      {
        ...(await currentVersionsOf(t.db, "scenario", scenario.id)),
        decision: "ACCEPT",
        reason: "a reviewer's explicit override of the failed proof",
      },
      actor,
    );
    await expect(createDatasetVersion(t.db, { projectId, name: "forged" })).rejects.toThrow(
      /No accepted, verified scenarios/,
    );
    const unverified = await createDatasetVersion(t.db, {
      projectId,
      name: "forged-unverified",
      allowUnverified: true,
    });
    expect(await t.db.datasetItem.count({ where: { datasetVersionId: unverified.id } })).toBe(1);
  }, 120_000);

  it("a genuine studio export is proven on import: VERIFIED, and still waiting for a reviewer's acceptance", async () => {
    const { id: source } = await createTestProject(t.db, "source");
    const toolsFor = async (s: ReturnType<typeof loadSamples>[number]) => {
      const tools = await sandbox.extractTools(s.source, s.meta.env_class_name);
      return tools.ok ? tools.value : [];
    };
    await seedSamples(t.db, { projectId: source, samples: loadSamples(), toolsFor });
    await acceptAndProveScenarios(t.db, source);
    const dir = path.join(work, "genuine");
    await writeDatasetExport(
      t.db,
      (await createDatasetVersion(t.db, { projectId: source, name: "genuine" })).id,
      "ENVSCALER_JSON",
      dir,
    );

    const { id: projectId } = await createTestProject(t.db, "imported");
    const files = ["env_metadata.json", "scenario_metadata_train.json", "scenario_metadata_test.json"].map(
      (name) => ({ name, text: readFileSync(path.join(dir, name), "utf8") }),
    );
    const result = await importFiles(t.db, { sandbox, send }, projectId, files);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const where = { environment: { projectId } };
    expect(await t.db.scenario.count({ where: { ...where, proofStatus: { not: "PENDING" } } })).toBe(0);
    expect(await t.db.environment.count({ where: { projectId, status: { not: "IN_REVIEW" } } })).toBe(0);

    await skipNearMisses(t.db, result.value.proofRunId!);
    await executeProofRun(t.db, result.value.proofRunId!, proofDeps());
    const scenarios = await t.db.scenario.findMany({ where, select: { status: true, proofStatus: true } });
    expect(scenarios.length).toBe(result.value.scenarios);
    expect(scenarios.every((s) => s.proofStatus === "VERIFIED" && s.status === "VERIFIED")).toBe(true);
    expect(await t.db.validatorProof.count({ where: { scenario: where, status: "VERIFIED" } })).toBe(
      scenarios.length,
    );
    // Proven, but nobody here accepted it yet: no dataset.
    await expect(createDatasetVersion(t.db, { projectId, name: "imported" })).rejects.toThrow(
      /No accepted, verified scenarios/,
    );
  }, 180_000);
});

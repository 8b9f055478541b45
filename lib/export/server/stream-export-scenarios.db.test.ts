/**
 * The exporters read a version's items in batches that pack small environments together and page
 * through large ones: whatever the batch size, every item comes once, environments in export
 * order and each environment's tasks in task-id order, with its own env_id.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { seedProvenDataset } from "@/tests/proven-dataset";
import { loadExportEnvironments, streamExportScenarios } from "./load-export-input";

const t = useTestDatabase();
let versionId = "";
/** Scenarios per environment: with a batch of 2, "bravo" is paged alone and "delta" fills a batch. */
const SIZES = { alpha: 1, bravo: 3, charlie: 1, delta: 2, echo: 1 };

beforeAll(async () => {
  const environments = Object.entries(SIZES).map(([slug, n]) => ({
    fields: { slug },
    scenarios: Array.from({ length: n }, (_, i) => ({ task: `${slug} task ${i}` })),
  }));
  versionId = (await seedProvenDataset(t.db, "stream", environments)).versionId;
});

async function streamed(batch?: number) {
  const envs = await loadExportEnvironments(t.db, versionId);
  const out: { envId: string; taskId: string; task: string }[] = [];
  for await (const s of streamExportScenarios(t.db, versionId, envs, false, batch))
    out.push({ envId: s.envId, taskId: s.taskId, task: s.task });
  return out;
}

describe("streaming a dataset version's scenarios", () => {
  it("gives every item once, by environment then task id, whatever the batch size", async () => {
    const whole = await streamed();
    expect(whole).toHaveLength(8);
    expect(whole.map((s) => s.envId)).toEqual(
      Object.entries(SIZES).flatMap(([slug, n]) => Array<string>(n).fill(slug)),
    );
    for (const slug of Object.keys(SIZES)) {
      const ids = whole.filter((s) => s.envId === slug).map((s) => s.taskId);
      expect(ids).toEqual([...ids].sort());
    }
    // Each scenario under its own environment's env_id, with its own task.
    expect(whole.every((s) => s.task.startsWith(`${s.envId} task`))).toBe(true);
    for (const batch of [1, 2, 3]) expect(await streamed(batch), `batch ${batch}`).toEqual(whole);
  });
});

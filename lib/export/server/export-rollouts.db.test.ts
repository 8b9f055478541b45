/**
 * SFT exports of what rollouts really store: real rollout runs (scripted endpoint, real sandbox)
 * in both modes, a dataset version, then OpenAI JSONL and LLaMA-Factory ShareGPT exports. Every
 * trajectory must come out with all of its messages, in shapes the trainers' readers accept.
 *
 * LLaMA-Factory's contract, from hiyouga/LLaMA-Factory at 02e2fb34bf8a79330b080607872fe4565876d0e6,
 * src/llamafactory/data/converter.py (SharegptDatasetConverter): turn i must be human/observation
 * when i is even and gpt/function_call when odd, and the number of turns must be even, else the
 * example is skipped as "abnormal"; and src/llamafactory/data/formatter.py (FunctionFormatter, at
 * 3a0f5b4fe72a5e02040081c47274f3ad67d5e668): a function_call value is `json.loads`-ed into one
 * object or a list of objects, each with "name" and "arguments".
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { canonicalJson } from "@/lib/llm";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { type TrajectoryStep, TrajectoryStepSchema } from "@/lib/rollout";
import { enqueueRolloutRun, executeRolloutRun } from "@/lib/rollout/server/rollout-run";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createSandboxRunner } from "@/lib/sandbox";
import { acceptAndProveScenarios, createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { createScenarioScript } from "@/tests/fake-openai/scenario-script";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { useTestDatabase } from "@/tests/db";
import * as T from "../testing/target-schemas";
import { writeDatasetExport } from "./run-export";

const t = useTestDatabase();
const runner = createSandboxRunner();
const sample = loadSamples().find((s) => s.slug === "library-lending")!;
const work = mkdtempSync(path.join(tmpdir(), "export-rollouts-"));
let fake: FakeOpenAi;
let versionId = "";
/** Per stored trajectory: the task, the tool calls it made (from Trajectory.steps) and its observations. */
let expected: { task: string; calls: string[]; observations: string[] }[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi({ script: createScenarioScript(sample) });
  const { id: projectId } = await createTestProject(t.db, "sft-export");
  await seedSamples(t.db, {
    projectId,
    samples: [sample],
    toolsFor: async (s) => {
      const r = await runner.extractTools(s.source, s.meta.env_class_name);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  });
  await acceptAndProveScenarios(t.db, projectId);
  const scenarioIds = (
    await t.db.scenario.findMany({ where: { environment: { projectId } }, select: { id: true } })
  ).map((s) => s.id);
  const deps = { sandbox: runner, llmFor: createRunLlmFactory(t.db, { baseUrl: fake.url, apiKey: "test" }) };
  for (const mode of ["non_conversational", "conversational"] as const) {
    const run = await enqueueRolloutRun(t.db, () => Promise.resolve(null), {
      projectId,
      scenarioIds,
      config: { mode, models: ["m-agent"], k: 1, concurrency: 2 },
    });
    await executeRolloutRun(t.db, run.id, deps);
  }
  const rows = await t.db.trajectory.findMany({
    where: { scenarioId: { in: scenarioIds } },
    include: { scenario: { select: { task: true } } },
  });
  expect(rows).toHaveLength(scenarioIds.length * 2);
  expect(rows.every((r) => r.sftPass === true)).toBe(true);
  expected = rows.map((r) => {
    const calls = z
      .array(TrajectoryStepSchema)
      .parse(r.steps)
      .filter((s): s is Extract<TrajectoryStep, { type: "tool_call" }> => s.type === "tool_call");
    return {
      task: r.scenario.task,
      calls: calls.map((c) => `${c.name}${canonicalJson(c.arguments)}`),
      observations: calls.map((c) => canonicalJson(c.observation)),
    };
  });
  versionId = (await createDatasetVersion(t.db, { projectId, name: "sft" })).id;
}, 300_000);
afterAll(async () => {
  await fake?.close();
  await runner.close();
  rmSync(work, { recursive: true, force: true });
});

const signature = (e: { task: string; calls: string[]; observations: string[] }) => JSON.stringify(e);
// Trajectory.steps is JSONB (Postgres reorders object keys), so JSON is compared in canonical form.
const canon = (s: string) => canonicalJson(JSON.parse(s) as unknown);

describe("SFT exports of real rollouts", () => {
  it("OpenAI JSONL: one row per trajectory with every message, in the openai SDK's message shape", async () => {
    const dir = path.join(work, "openai");
    const summary = await writeDatasetExport(t.db, versionId, "OPENAI_JSONL", dir);
    const lines = ["train.jsonl", "test.jsonl"].flatMap((f) =>
      readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean),
    );
    expect(summary.rows).toBe(expected.length);
    const rows = lines.map((l) => T.OpenAiFineTuneRowSchema.parse(JSON.parse(l)));
    const got = rows.map((row) => {
      // Compile-time half of the contract: the parsed row is the openai SDK's own message type.
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = row.messages;
      expect(messages[0]?.role).toBe("system");
      expect(messages.at(-1)).toEqual({ role: "assistant", content: "Task Completed" });
      const calls = row.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []));
      const results = row.messages.flatMap((m) => (m.role === "tool" ? [m] : []));
      expect(results.map((r) => r.tool_call_id)).toEqual(calls.map((c) => c.id));
      const task = row.messages.find((m) => m.role === "user")?.content ?? "";
      return {
        task,
        calls: calls.map((c) => `${c.function.name}${canon(c.function.arguments)}`),
        observations: results.map((r) => canon(r.content)),
      };
    });
    expect(got.map(signature).sort()).toEqual(expected.map(signature).sort());
  });

  it("LLaMA-Factory ShareGPT: one row per trajectory that its sharegpt converter and function formatter accept", async () => {
    const dir = path.join(work, "llamafactory");
    const summary = await writeDatasetExport(t.db, versionId, "LLAMAFACTORY_SHAREGPT", dir);
    expect(summary.rows).toBe(expected.length);
    const info = T.LlamaFactoryDatasetInfoSchema.parse(
      JSON.parse(readFileSync(path.join(dir, "dataset_info.json"), "utf8")),
    );
    const rows = Object.values(info).flatMap((entry) =>
      z.array(T.ShareGptRowSchema).parse(JSON.parse(readFileSync(path.join(dir, entry.file_name), "utf8"))),
    );
    const got = rows.map((row) => {
      const turns = row.conversations;
      expect(turns.length % 2).toBe(0);
      turns.forEach((turn, i) =>
        expect(i % 2 === 0 ? ["human", "observation"] : ["gpt", "function_call"]).toContain(turn.from),
      );
      expect(row.system.length).toBeGreaterThan(0);
      const calls = turns
        .filter((turn) => turn.from === "function_call")
        .flatMap((turn) => {
          const parsed = JSON.parse(turn.value) as unknown;
          return z
            .array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }))
            .parse(Array.isArray(parsed) ? parsed : [parsed]);
        });
      expect(turns.at(-1)).toEqual({ from: "gpt", value: "Task Completed" });
      return {
        task: turns[0]?.value ?? "",
        calls: calls.map((c) => `${c.name}${canonicalJson(c.arguments)}`),
        observations: turns.filter((turn) => turn.from === "observation").map((turn) => canon(turn.value)),
      };
    });
    expect(got.map(signature).sort()).toEqual(expected.map(signature).sort());
  });
});

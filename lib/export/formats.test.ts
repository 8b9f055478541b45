/**
 * Every format against its golden folder (lib/export/golden/<format>/; regenerate with
 * UPDATE_GOLDEN=1 and review the diff) and against the target's schema.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ExportFormatName, type ExportScenario } from "./export.schema";
import { EXPORT_FORMATS } from "./formats/registry";
import { createDirSink } from "./sink";
import { fixtureInput, iterate } from "./testing/fixture";
import * as T from "./testing/target-schemas";
import { writeExport } from "./write-export";

const GOLDEN = path.join(import.meta.dirname, "golden");
const work = mkdtempSync(path.join(tmpdir(), "export-golden-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function listFiles(dir: string, base = ""): string[] {
  return readdirSync(path.join(dir, base))
    .sort()
    .flatMap((name) => {
      const rel = path.join(base, name);
      return statSync(path.join(dir, rel)).isDirectory() ? listFiles(dir, rel) : [rel];
    });
}

async function exportTo(format: ExportFormatName): Promise<string> {
  const dir = path.join(work, format);
  await writeExport(format, fixtureInput(), createDirSink(dir));
  return dir;
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8");
const jsonl = (dir: string, file: string) =>
  read(dir, file)
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

describe.each(EXPORT_FORMATS)("%s export", (format) => {
  it("matches its golden folder byte for byte", async () => {
    const dir = await exportTo(format);
    const golden = path.join(GOLDEN, format);
    if (process.env.UPDATE_GOLDEN === "1") {
      rmSync(golden, { recursive: true, force: true });
      cpSync(dir, golden, { recursive: true });
    }
    expect(listFiles(dir)).toEqual(listFiles(golden));
    for (const file of listFiles(golden))
      expect(readFileSync(path.join(dir, file)).equals(readFileSync(path.join(golden, file))), file).toBe(
        true,
      );
  });
});

describe("target schemas", () => {
  it("EnvScaler: env metadata keyed by env_id and a scenario list", async () => {
    const dir = await exportTo("ENVSCALER_JSON");
    const envs = z
      .record(z.string(), T.EnvScalerEnvItemSchema)
      .parse(JSON.parse(read(dir, "env_metadata.json")));
    expect(Object.keys(envs)).toEqual(["counter"]);
    expect(
      z.array(T.EnvScalerScenarioSchema).parse(JSON.parse(read(dir, "scenario_metadata_train.json"))),
    ).toHaveLength(2);
    expect(
      z.array(T.EnvScalerScenarioSchema).parse(JSON.parse(read(dir, "scenario_metadata_test.json"))),
    ).toHaveLength(1);
    // Counted without a progress callback too (the CLI and direct exports pass none).
    expect(JSON.parse(read(dir, "envstudio_dataset.json"))).toMatchObject({ scenarios: 3 });
  });

  it("OpenAI: one fine-tuning row per SFT trajectory, on the scenario's split", async () => {
    const dir = await exportTo("OPENAI_JSONL");
    const train = jsonl(dir, "train.jsonl").map((r) => T.OpenAiFineTuneRowSchema.parse(r));
    expect(train).toHaveLength(2);
    expect(jsonl(dir, "test.jsonl")).toHaveLength(1);
    expect(train[0]?.messages[2]).toMatchObject({
      role: "assistant",
      tool_calls: [{ function: { name: "add", arguments: '{"amount":3}' } }],
    });
  });

  it("LlamaFactory: ShareGPT rows with tools and the dataset_info entries", async () => {
    const dir = await exportTo("LLAMAFACTORY_SHAREGPT");
    const info = T.LlamaFactoryDatasetInfoSchema.parse(JSON.parse(read(dir, "dataset_info.json")));
    for (const entry of Object.values(info)) {
      const rows = z.array(T.ShareGptRowSchema).parse(JSON.parse(read(dir, entry.file_name)));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows[0]?.conversations.map((t) => t.from)).toEqual([
        "human",
        "function_call",
        "observation",
        "gpt",
      ]);
    }
  });

  it("Hugging Face: data files match the card's declared splits", async () => {
    const dir = await exportTo("HF_DATASET");
    expect(jsonl(dir, "data/train.jsonl").map((r) => T.HfRowSchema.parse(r))).toHaveLength(2);
    expect(jsonl(dir, "data/test.jsonl")).toHaveLength(1);
    const card = read(dir, "README.md");
    expect(card).toMatch(
      /^---\n[\s\S]*configs:[\s\S]*path: data\/train.jsonl[\s\S]*num_examples: 2[\s\S]*\n---\n/,
    );
    expect(card).toContain(
      "      - name: difficulty\n        struct:\n          - name: n\n            dtype: int64",
    );
  });

  it("every format with a place for metadata carries the frozen difficulty, per_model nested", async () => {
    const hf = jsonl(await exportTo("HF_DATASET"), "data/train.jsonl").map((r) => T.HfRowSchema.parse(r));
    expect(hf[0]?.difficulty).toMatchObject({
      n: 8,
      successes: 3,
      k: 2,
      group_size: 8,
      pass_hat_k: 0.107143,
    });
    expect(hf[0]?.difficulty?.per_model.map((m) => m.model)).toEqual(["a", "b"]);
    const envscaler = JSON.parse(read(await exportTo("ENVSCALER_JSON"), "scenario_metadata_test.json")) as {
      difficulty: unknown;
    }[];
    expect(T.DifficultyExportSchema.parse(envscaler[0]?.difficulty)).toMatchObject({ n: 0, p_signal: null });
    const openenv = await exportTo("OPENENV_PACKAGE");
    const tasks = JSON.parse(read(openenv, "counter/scenarios.json")) as { difficulty: unknown }[];
    expect(T.DifficultyExportSchema.parse(tasks[1]?.difficulty)).toMatchObject({
      n: 4,
      successes: 4,
      p_signal: 0,
    });
    expect(
      T.DifficultyExportSchema.parse(
        (jsonl(openenv, "counter/trl_dataset.jsonl")[0] as { difficulty?: unknown } | undefined)?.difficulty,
      ),
    ).toBeTruthy();
    const verl = readFileSync(path.join(await exportTo("VERL_PARQUET"), "data/train.parquet"));
    const rows = await parquetReadObjects({
      file: verl.buffer.slice(verl.byteOffset, verl.byteOffset + verl.byteLength),
    });
    const d = T.VerlRowSchema.parse(rows[0]).extra_info.difficulty;
    expect(d).toMatchObject({ n: 8n, successes: 3n, success_rate: 0.375 });
    expect(d?.per_model[1]).toMatchObject({ model: "b", successes: 0n, pass_at_k: 0 });
  });

  it("verl: parquet rows read back with the verl row schema, tool config lists every tool", async () => {
    const dir = await exportTo("VERL_PARQUET");
    const buffer = readFileSync(path.join(dir, "data/train.parquet"));
    const rows = await parquetReadObjects({
      file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
    });
    expect(rows.map((r) => T.VerlRowSchema.parse(r))).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      extra_info: { tools_kwargs: { add: { create_kwargs: { env_id: "counter", task_id: "counter-01" } } } },
    });
    expect(read(dir, "tool_config.yaml").match(/class_name: "envstudio_verl.EnvMethodTool"/g)).toHaveLength(
      2,
    );
  });

  it("OpenEnv: the package layout `openenv init` creates, with TRL tools for every method", async () => {
    const dir = await exportTo("OPENENV_PACKAGE");
    const files = listFiles(dir);
    for (const f of [
      "openenv.yaml",
      "pyproject.toml",
      "models.py",
      "client.py",
      "__init__.py",
      "README.md",
      "server/app.py",
      "server/counter_environment.py",
      "server/requirements.txt",
      "server/Dockerfile",
    ])
      expect(files).toContain(`counter/${f}`);
    expect(read(dir, "counter/openenv.yaml")).toContain("app: server.app:app");
    expect(read(dir, "counter/trl_env.py")).toContain(
      "def add(self, amount: int, note: str = _UNSET) -> str:",
    );
  });
});

const python = (() => {
  try {
    execFileSync("python3", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(python)("generated Python (python3 on the test machine)", () => {
  it("compiles, and the OpenEnv runtime plays an episode and scores the checklist", async () => {
    const dir = await exportTo("OPENENV_PACKAGE");
    execFileSync("python3", [
      "-m",
      "py_compile",
      ...listFiles(dir)
        .filter((f) => f.endsWith(".py"))
        .map((f) => path.join(dir, f)),
    ]);
    const script =
      "import sys, json; sys.path.insert(0, sys.argv[1] + '/counter'); from runtime import Episode, load_scenarios\n" +
      "e = Episode(load_scenarios()['counter-01']); e.call('add', {'amount': 3}); print(json.dumps(e.finish()))";
    const [, reward] = JSON.parse(execFileSync("python3", ["-c", script, dir], { encoding: "utf8" })) as [
      unknown,
      number,
    ];
    expect(reward).toBe(1);
  });
});

describe("validator strength", () => {
  it("is left out of every file of a version that did not record it", async () => {
    const input = fixtureInput();
    const scenarios: ExportScenario[] = [];
    for await (const s of input.scenarios) scenarios.push({ ...s, nearMissStrength: undefined });
    const legacy = {
      ...input,
      dataset: { ...input.dataset, hasNearMissStrength: undefined },
      scenarios: iterate(scenarios),
    };
    for (const format of EXPORT_FORMATS) {
      const dir = path.join(work, "legacy", format);
      await writeExport(format, legacy, createDirSink(dir));
      for (const file of listFiles(dir))
        expect(readFileSync(path.join(dir, file)).includes("near_miss"), `${format}: ${file}`).toBe(false);
    }
  });
});

/**
 * Round trip (export → import → export gives the same files) and malformed imports (located
 * error, database unchanged), against real Postgres and the real sandbox `analyze`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatasetVersion } from "@/lib/datasets/server/create-dataset-version";
import { writeDatasetExport } from "@/lib/export/server/run-export";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { executeProofRun } from "@/lib/scenarios/server/proof-run";
import { acceptAndProveScenarios, createTestProject } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { skipNearMisses } from "@/tests/proof-config";
import { formatImportError } from "../import.schema";
import { importFiles } from "./import-files";

const t = useTestDatabase();
const noQueue = () => Promise.resolve(null);
let sandbox: SandboxRunner;
const work = mkdtempSync(path.join(tmpdir(), "import-"));
let exported = "";
const SAMPLES = path.join(import.meta.dirname, "../../../prisma/seed/samples");

beforeAll(async () => {
  sandbox = createSandboxRunner();
  const { id: projectId } = await createTestProject(t.db, "import-src");
  const toolsFor = async (s: ReturnType<typeof loadSamples>[number]) => {
    const tools = await sandbox.extractTools(s.source, s.meta.env_class_name);
    return tools.ok ? tools.value : [];
  };
  await seedSamples(t.db, { projectId, samples: loadSamples(), toolsFor });
  await acceptAndProveScenarios(t.db, projectId);
  const v = await createDatasetVersion(t.db, { projectId, name: "rt", seed: 5 });
  exported = path.join(work, "first");
  await writeDatasetExport(t.db, v.id, "ENVSCALER_JSON", exported);
}, 180_000);
afterAll(async () => {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
});

const file = (dir: string, name: string) => ({ name, text: readFileSync(path.join(dir, name), "utf8") });
const counts = async () => [
  await t.db.environment.count(),
  await t.db.scenario.count(),
  await t.db.validatorVersion.count(),
];

describe("EnvScaler round trip", () => {
  it("export → import → export gives identical env and scenario metadata", async () => {
    const { id: projectId } = await createTestProject(t.db, "import-dst");
    // The whole export folder, and trajectory files beside the scenarios, which are passed over
    // (this dataset has no rollouts, so the export wrote none: they are added as a trainer's would be).
    const all = [
      "env_metadata.json",
      "scenario_metadata_train.json",
      "scenario_metadata_test.json",
      "envstudio_dataset.json",
    ];
    expect(existsSync(path.join(exported, "sft_traj_train.json"))).toBe(false);
    const result = await importFiles(t.db, { sandbox, send: noQueue }, projectId, [
      ...all.map((name) => file(exported, name)),
      { name: "sft_traj_train.json", text: "[]\n" },
      { name: "sft_traj_test.json", text: "[]\n" },
    ]);
    expect(result.ok, result.ok ? "" : formatImportError(result.error)).toBe(true);
    // Imports land in review, proof pending: prove them here and accept them as reviewers would.
    await skipNearMisses(t.db, result.ok ? result.value.proofRunId! : "");
    await executeProofRun(t.db, result.ok ? result.value.proofRunId! : "", {
      sandbox,
      llmFor: createRunLlmFactory(t.db),
    });
    await acceptAndProveScenarios(t.db, projectId);
    const v = await createDatasetVersion(t.db, { projectId, name: "rt", seed: 5 });
    const second = path.join(work, "second");
    await writeDatasetExport(t.db, v.id, "ENVSCALER_JSON", second);
    for (const name of ["env_metadata.json", "scenario_metadata_train.json", "scenario_metadata_test.json"])
      expect(readFileSync(path.join(second, name), "utf8")).toBe(
        readFileSync(path.join(exported, name), "utf8"),
      );
    // The proof run replays every imported scenario's gold calls in the sandbox (near-misses are
    // skipped: strength is not what this asserts): on a busy shared machine that can take minutes.
  }, 300_000);

  it("imports a Python environment folder with its scenario file (setattr convention), for review", async () => {
    const { id: projectId } = await createTestProject(t.db, "import-py");
    const dir = path.join(SAMPLES, "library-lending");
    const result = await importFiles(
      t.db,
      { sandbox, send: noQueue },
      projectId,
      ["environment.py", "scenarios.json", "meta.json"].map((n) => ({
        name: `library-lending/${n}`,
        text: readFileSync(path.join(dir, n), "utf8"),
      })),
    );
    expect(result.ok && result.value.scenarios).toBeGreaterThan(0);
    const env = await t.db.environment.findFirstOrThrow({
      where: { projectId },
      include: { currentVersion: true },
    });
    expect(env).toMatchObject({ slug: "sample-library-lending", status: "IN_REVIEW", origin: "IMPORT" });
    expect((env.currentVersion?.tools as unknown[]).length).toBeGreaterThan(5);
    expect(env.currentVersion?.metadata).toMatchObject({ initial_state_convention: "attributes" });
  });

  it("imports a class that loads its state with _load_scenario; scenarios may omit env_id", async () => {
    const { id: projectId } = await createTestProject(t.db, "import-load");
    const source =
      "class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def _load_scenario(self, state):\n        self.notes = dict(state['notes'])\n\n    def list_notes(self) -> dict:\n        \"\"\"List notes.\"\"\"\n        return {'success': True, 'data': self.notes}\n";
    const scenarios = [
      {
        task_id: "n1",
        init_config: { notes: { a: "x" } },
        task: "List the notes.",
        checklist_with_func: [
          {
            check_item: "Unchanged?",
            check_func: "def check_func(final_state):\n    return final_state['notes'] == {'a': 'x'}\n",
          },
        ],
      },
    ];
    const result = await importFiles(t.db, { sandbox, send: noQueue }, projectId, [
      { name: "notes/environment.py", text: source },
      { name: "notes/scenarios.json", text: JSON.stringify(scenarios) },
    ]);
    expect(result.ok && result.value).toEqual({
      environments: ["notes"],
      scenarios: 1,
      imported: [expect.objectContaining({ slug: "notes", version: 1, asNewVersion: false })],
      proofRunId: expect.any(String) as unknown,
      warnings: [],
    });
    const version = await t.db.environmentVersion.findFirstOrThrow({ where: { environment: { projectId } } });
    expect(version).toMatchObject({
      className: "Notes",
      metadata: { initial_state_convention: "load_scenario" },
    });
    const episode = await sandbox.load({
      source,
      className: "Notes",
      initialState: scenarios[0]?.init_config ?? {},
    });
    expect(episode.ok).toBe(true);
    if (episode.ok) {
      expect(await episode.value.step("list_notes")).toMatchObject({
        ok: true,
        value: { observation: { data: { a: "x" } } },
      });
      await episode.value.close();
    }
  });
});

describe("tool schemas come from the code, never from the file", () => {
  it("stores the analysis; each disagreement of the file's tools is a located warning", async () => {
    const { id: projectId } = await createTestProject(t.db, "import-tools");
    const envs = JSON.parse(readFileSync(path.join(exported, "env_metadata.json"), "utf8")) as Record<
      string,
      {
        env_class_code: string;
        env_class_name: string;
        tools: { function: { name: string; description: string } }[];
      }
    >;
    const [envId, item] = Object.entries(envs)[0] ?? [];
    if (!envId || !item) throw new Error("no environment exported");
    const code = await sandbox.extractTools(item.env_class_code, item.env_class_name);
    if (!code.ok) throw new Error(code.error.message);
    const [first, ...rest] = item.tools;
    const claimed = [
      { ...first, function: { ...first?.function, description: "Deletes every record." } },
      ...rest.slice(1),
      { type: "function", function: { name: "drop_all", description: "Not a method.", parameters: {} } },
    ];
    const result = await importFiles(t.db, { sandbox, send: noQueue }, projectId, [
      { name: "env_metadata.json", text: JSON.stringify({ [envId]: { ...item, tools: claimed } }, null, 2) },
    ]);
    if (!result.ok) throw new Error(formatImportError(result.error));
    expect(result.value.warnings.map(formatImportError)).toEqual([
      `env_metadata.json:2, record ${envId}, field tools.0: tool "${first?.function.name}" differs from the code in description; the code's schema is used`,
      `env_metadata.json:2, record ${envId}, field tools.${claimed.length - 1}: tool "drop_all" is not a method of ${item.env_class_name}; it is left out`,
      `env_metadata.json:2, record ${envId}, field tools: method "${rest[0]?.function.name}" of ${item.env_class_name} is missing from the file's tools; it is a tool`,
    ]);
    const env = await t.db.environment.findFirstOrThrow({
      where: { projectId },
      include: { currentVersion: true },
    });
    expect(env.currentVersion?.tools).toEqual(code.value);
    expect(env.toolCount).toBe(code.value.length);
  });
});

describe("malformed imports leave the database unchanged", () => {
  const cases: [string, (envText: string, scenText: string) => { name: string; text: string }[], RegExp][] = [
    [
      "not JSON",
      (e) => [{ name: "env_metadata.json", text: e.slice(0, 200) }],
      /^env_metadata\.json:\d+: not valid JSON \(line \d+, column \d+\)/,
    ],
    [
      "wrong shape",
      (e, s) => [
        { name: "env_metadata.json", text: e },
        { name: "scenario_metadata.json", text: s.replace('"task_id":', '"task_idx":') },
      ],
      /^scenario_metadata\.json:2, record 0, field task_id: /,
    ],
    [
      "code that does not parse",
      (e, s) => [
        { name: "env_metadata.json", text: e.replace(/def [a-z_]+\(self/, "def broken(self,,") },
        { name: "scenario_metadata.json", text: s },
      ],
      /record [a-z-]+, field env_class_code: code does not parse: line \d+/,
    ],
    [
      "unknown environment",
      (e, s) => [
        { name: "env_metadata.json", text: e },
        { name: "scenario_metadata.json", text: s.replace(/"env_id":"[a-z-]+"/, '"env_id":"nope"') },
      ],
      /record 0, field env_id: unknown environment "nope"/,
    ],
    [
      "a number beyond the float range",
      (e, s) => [
        { name: "env_metadata.json", text: e },
        {
          name: "scenario_metadata.json",
          text: s.replace('"init_config":{', '"init_config":{"limit":1e999,'),
        },
      ],
      /^scenario_metadata\.json:2, record 0, field init_config\.limit: the number 1e999 is beyond the 64-bit float range and would be stored as null/,
    ],
    [
      "an integer beyond 2^53",
      (e, s) => [
        { name: "env_metadata.json", text: e },
        {
          name: "scenario_metadata.json",
          text: s.replace('"init_config":{', '"init_config":{"account":12345678901234567891,'),
        },
      ],
      /^scenario_metadata\.json:2, record 0, field init_config\.account: the integer 12345678901234567891 is beyond ±9007199254740991/,
    ],
    [
      "a tool name in the file that is not a Python name",
      (e, s) => [
        {
          name: "env_metadata.json",
          text: e.replace(
            '"tools":[{"type":"function","function":{"name":"',
            '"tools":[{"type":"function","function":{"name":"x(self):  #\\\\\\n    pass  #\\\\\\n',
          ),
        },
        { name: "scenario_metadata.json", text: s },
      ],
      /^env_metadata\.json:2, record [a-z-]+, field tools\.0\.function\.name: tool name "x\(self\):/,
    ],
    [
      "oversized",
      (e) => [{ name: "env_metadata.json", text: e + " ".repeat(2048) }],
      /over the import limit of 1024/,
    ],
  ];
  it.each(cases)("%s: a located error and no rows", async (_name, make, expected) => {
    const { id: projectId } = await createTestProject(t.db, "bad");
    const before = await counts();
    const files = make(
      readFileSync(path.join(exported, "env_metadata.json"), "utf8"),
      readFileSync(path.join(exported, "scenario_metadata_train.json"), "utf8"),
    );
    const result = await importFiles(
      t.db,
      { sandbox, send: noQueue },
      projectId,
      files,
      _name === "oversized" ? { maxBytes: 1024 } : {},
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(formatImportError(result.error)).toMatch(expected);
    expect(await counts()).toEqual(before);
  });

  it("a conflict halfway through writes nothing (one transaction)", async () => {
    const { id: projectId } = await createTestProject(t.db, "conflict");
    const envText = readFileSync(path.join(exported, "env_metadata.json"), "utf8");
    const lastSlug = Object.keys(JSON.parse(envText) as object).at(-1) ?? "";
    await t.db.environment.create({ data: { projectId, slug: lastSlug, name: "taken", origin: "MANUAL" } });
    const before = await counts();
    const result = await importFiles(t.db, { sandbox, send: noQueue }, projectId, [
      { name: "env_metadata.json", text: envText },
      file(exported, "scenario_metadata_train.json"),
      file(exported, "scenario_metadata_test.json"),
    ]);
    expect(!result.ok && formatImportError(result.error)).toMatch(
      new RegExp(`record ${lastSlug}, field env_id: environment "${lastSlug}" already exists`),
    );
    expect(await counts()).toEqual(before);
  });
});

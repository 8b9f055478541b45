/**
 * Every export format fed hostile strings (descriptions, enum values, docstrings, names of the
 * environment and the dataset, tasks, checks, states, trajectories) and read back by python3 the
 * way trainers read it: every .py file compiles, the OpenEnv/TRL package and envstudio_verl.py
 * import, and none of it runs — host-side evidence: the marker file the payloads would create does
 * not exist. JSON, JSONL, YAML (also as OmegaConf resolves it), TOML and parquet give back every
 * string exactly. Names that are not Python identifiers make every export refuse before writing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExportInputError } from "./check-environments";
import { omegaConfString } from "./config-source";
import { type ExportFormatName, type OpenAiTool } from "./export.schema";
import { EXPORT_FORMATS } from "./formats/registry";
import { packageName, writeOpenEnv } from "./formats/openenv";
import { singleTypeTool } from "./formats/single-type-schema";
import { systemPrompt } from "./formats/system-prompt";
import { docLine, forwarder } from "./formats/trl-wrapper";
import { UnsafeSourceError } from "./python-source";
import { createDirSink } from "./sink";
import {
  hostileNames,
  hostileDatasetName,
  hostileEnvironment,
  hostileInput,
  hostileStrings,
  payloads,
} from "./testing/hostile-fixture";
import { readParquet, runPython } from "./testing/run-python";
import { writeExport } from "./write-export";

const work = mkdtempSync(path.join(tmpdir(), "export-hostile-"));
const marker = path.join(work, "marker");
const READ_BACK = path.join(import.meta.dirname, "testing", "read_back.py");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const H = hostileStrings(marker);
const ENV = hostileEnvironment(marker);
const TOOL = ENV.tools[0] as OpenAiTool;
const TASK = H.join(" / ");

type ReadBack = {
  files: Record<string, unknown>;
  omegaconf: { tools?: { config: unknown; tool_schema: unknown }[] };
  python: {
    package?: {
      docs: Record<string, string>;
      env_class_name: string;
      trl_tools: Record<string, { doc: string; literals: Record<string, unknown[]> }>;
    };
    verl?: { has_compute_score: boolean };
  };
};

function listFiles(dir: string, base = ""): string[] {
  return readdirSync(path.join(dir, base)).flatMap((name) => {
    const rel = path.join(base, name);
    return statSync(path.join(dir, rel)).isDirectory() ? listFiles(dir, rel) : [rel];
  });
}

/** Every string in a value, with JSON held in strings (tools, init_config, arguments) opened too. */
function strings(value: unknown): string[] {
  if (typeof value === "string") {
    if (/^[[{]/.test(value))
      try {
        return [value, ...strings(JSON.parse(value))];
      } catch {
        return [value];
      }
    return [value];
  }
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

async function exportAndReadBack(format: ExportFormatName) {
  const dir = path.join(work, format);
  await writeExport(format, hostileInput(marker), createDirSink(dir));
  const back = JSON.parse(runPython([READ_BACK, dir])) as ReadBack;
  return { dir, back, js: (file: string) => readFileSync(path.join(dir, file), "utf8") };
}

describe("the marker check", () => {
  it("sees a payload that runs: each payload creates the marker when executed", () => {
    for (const code of Object.values(payloads(marker))) {
      execFileSync("python3", ["-c", code]);
      expect(existsSync(marker)).toBe(true);
      rmSync(marker);
    }
  });
});

describe.each(EXPORT_FORMATS)("%s export of hostile strings", (format) => {
  it("compiles and imports in python3 without running any of it, and gives every string back exactly", async () => {
    const { dir, back, js } = await exportAndReadBack(format);
    expect(existsSync(marker)).toBe(false);
    const parsed = listFiles(dir).filter((f) => /\.jsonl?$/.test(f));
    expect(parsed.length).toBeGreaterThan(0);
    for (const file of parsed) {
      const text = js(file);
      const value: unknown = file.endsWith(".jsonl")
        ? text
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as unknown)
        : JSON.parse(text);
      expect(back.files[file], file).toEqual(value);
    }
    const parquet = await Promise.all(
      listFiles(dir)
        .filter((f) => f.endsWith(".parquet"))
        .map((f) => readParquet(path.join(dir, f))),
    );
    const found = strings([back.files, parquet]);
    for (const h of H)
      expect(
        found.some((s) => s.includes(h)),
        JSON.stringify(h),
      ).toBe(true);
  });
});

describe("hostile strings land exactly where each trainer reads them", () => {
  it("OpenEnv/TRL: docstrings, Literal values, pyproject and openenv.yaml read back as written", async () => {
    const { back } = await exportAndReadBack("OPENENV_PACKAGE");
    const pkg = back.python.package;
    expect(pkg?.env_class_name).toBe("Hostile");
    expect(pkg?.docs.hostile).toBe(`${ENV.name} environment (EnvStudio export).`);
    expect(pkg?.docs[".client"]).toBe(`${ENV.name} environment client (generated by EnvStudio).`);
    const props = TOOL.function.parameters.properties as Record<string, { description?: string }>;
    expect(pkg?.trl_tools.match?.doc).toBe(
      `${docLine(TOOL.function.description)}\n\n        Args:\n` +
        `            type: ${docLine(props.type?.description ?? "")}\n` +
        `            note: ${docLine(props.note?.description ?? "")}\n` +
        `            level: level\n        `,
    );
    expect(pkg?.trl_tools.match?.literals).toEqual({ type: H, level: [0, -1, 2.5, 1e-7, 1e21] });
    const pyproject = back.files["hostile/pyproject.toml"] as { project: { description: string } };
    expect(pyproject.project.description).toBe(`${ENV.name} environment for OpenEnv (EnvStudio export)`);
    expect(back.files["hostile/openenv.yaml"]).toMatchObject({ name: "hostile" });
    expect(back.files["hostile/tools.json"]).toEqual(ENV.tools);
  });

  it("verl: tool_config.yaml gives the schema back through YAML and OmegaConf; parquet rows hold the texts", async () => {
    const { dir, back } = await exportAndReadBack("VERL_PARQUET");
    const expected = JSON.parse(JSON.stringify(singleTypeTool(TOOL))) as unknown;
    expect(back.omegaconf.tools?.[0]?.tool_schema).toEqual(expected);
    // As plain YAML the strings hold OmegaConf's escapes, and only where a `${` stands.
    const escaped = JSON.parse(JSON.stringify(expected), (_k, v: unknown) =>
      typeof v === "string" ? omegaConfString(v) : v,
    ) as unknown;
    const yamlTools = (back.files["tool_config.yaml"] as { tools: { tool_schema: unknown }[] }).tools;
    expect(yamlTools[0]?.tool_schema).toEqual(escaped);
    expect(back.python.verl?.has_compute_score).toBe(true);
    const [row] = await readParquet(path.join(dir, "data/train.parquet"));
    expect(row).toMatchObject({
      prompt: [
        { role: "system", content: systemPrompt(ENV) },
        { role: "user", content: TASK },
      ],
    });
    const truth = JSON.parse((row?.reward_model as { ground_truth: string }).ground_truth) as unknown;
    expect(truth).toEqual({ env_id: "hostile", task_id: "h-1", checklist: H });
  });

  it("Hugging Face: the card's YAML header gives the dataset name back; JSON columns hold tools and states", async () => {
    const { back } = await exportAndReadBack("HF_DATASET");
    expect(back.files["README.md"]).toMatchObject({ pretty_name: hostileDatasetName(marker) });
    const [envRow] = back.files["data/environments.jsonl"] as {
      tools: string;
      environment_summary: string;
    }[];
    expect(JSON.parse(envRow?.tools ?? "null")).toEqual(ENV.tools);
    expect(envRow?.environment_summary).toBe(ENV.name);
    const [row] = back.files["data/train.jsonl"] as { init_config: string; task: string }[];
    expect(row?.task).toBe(TASK);
    expect(Object.keys(JSON.parse(row?.init_config ?? "{}") as object)).toEqual(H);
  });

  it("EnvScaler: environment, scenario and trajectory texts are the input's", async () => {
    const { back } = await exportAndReadBack("ENVSCALER_JSON");
    const env = (back.files["env_metadata.json"] as Record<string, Record<string, unknown>>).hostile;
    expect(env).toMatchObject({ environment_summary: ENV.name, environment_introduction: ENV.description });
    expect(env?.tools).toEqual(ENV.tools);
    const [scenario] = back.files["scenario_metadata_train.json"] as Record<string, unknown>[];
    expect(scenario).toMatchObject({ task: TASK, checklist: H });
    expect(Object.keys(scenario?.init_config as object)).toEqual(H);
  });
});

describe("env ids that are Python or YAML words", () => {
  it("become package names Python can import and openenv.yaml gives back as strings", async () => {
    expect([packageName("class"), packageName("import"), packageName("null"), packageName("9lives")]).toEqual(
      ["env_class", "env_import", "null", "env_9lives"],
    );
    for (const envId of ["class", "null"]) {
      const dir = path.join(work, `words-${envId}`);
      await writeExport("OPENENV_PACKAGE", hostileInput(marker, [{ ...ENV, envId }]), createDirSink(dir));
      const back = JSON.parse(runPython([READ_BACK, dir])) as ReadBack;
      const pkg = packageName(envId);
      expect(back.files[`${pkg}/openenv.yaml`]).toMatchObject({ name: pkg });
      expect(back.python.package?.env_class_name).toBe("Hostile");
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("names that are not Python names", () => {
  const withToolName = (name: string) => ({
    ...ENV,
    tools: [{ ...TOOL, function: { ...TOOL.function, name } }],
  });
  const withParameter = (name: string) => ({
    ...ENV,
    tools: [
      {
        ...TOOL,
        function: {
          ...TOOL.function,
          parameters: { type: "object", properties: { [name]: { type: "string" } }, required: [name] },
        },
      },
    ],
  });

  it.each(EXPORT_FORMATS)(
    "%s refuses them, naming the environment and the field, and writes nothing",
    async (format) => {
      for (const [i, name] of hostileNames(marker).entries()) {
        for (const [kind, env, field] of [
          ["tool", withToolName(name), "tools.0.function.name"],
          ["parameter", withParameter(name), "tools.0.function.parameters.properties"],
        ] as const) {
          const dir = path.join(work, `refused-${format}-${kind}-${i}`);
          const attempt = writeExport(format, hostileInput(marker, [env]), createDirSink(dir));
          await expect(attempt).rejects.toThrow(ExportInputError);
          await expect(attempt).rejects.toThrow(`environment hostile version 1 cannot be exported: ${field}`);
          expect(existsSync(dir) ? listFiles(dir) : []).toEqual([]);
        }
      }
    },
  );

  it("OpenEnv refuses a tool TRL reserves, naming the environment, and writes nothing", async () => {
    const dir = path.join(work, "reserved");
    const env = { ...ENV, tools: [{ ...TOOL, function: { ...TOOL.function, name: "reset" } }] };
    await expect(
      writeExport("OPENENV_PACKAGE", hostileInput(marker, [env]), createDirSink(dir)),
    ).rejects.toThrow(
      'environment hostile version 1 cannot be exported as an OpenEnv package: tool name: "reset" is a TRL environment method',
    );
    expect(existsSync(dir) ? listFiles(dir) : []).toEqual([]);
  });

  it("the class name too: `class Hostile\\n…` is not a class name", async () => {
    const env = { ...ENV, className: "Hostile\n__import__('os')" };
    await expect(
      writeExport("ENVSCALER_JSON", hostileInput(marker, [env]), createDirSink(work)),
    ).rejects.toThrow("env_class_name");
  });

  it("the generators refuse them on their own, without the export's check", async () => {
    for (const name of hostileNames(marker)) {
      const tool = { ...TOOL, function: { ...TOOL.function, name } };
      expect(() => forwarder(tool), JSON.stringify(name)).toThrow(UnsafeSourceError);
    }
    expect(() => forwarder({ ...TOOL, function: { ...TOOL.function, name: "reset" } })).toThrow(
      "is a TRL environment method",
    );
    const sink = createDirSink(path.join(work, "direct"));
    await expect(
      writeOpenEnv(hostileInput(marker, [{ ...ENV, className: "Hostile(object): pass\n#" }]), sink),
    ).rejects.toThrow("environment hostile version 1 cannot be exported as an OpenEnv package: class name");
    expect(sink.files).toEqual([]);
  });
});

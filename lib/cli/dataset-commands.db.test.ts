/**
 * `envstudio dataset | export | import` through `main`, in-process, against a per-file test database
 * (the default project the CLI opens) and the real sandbox for import analysis.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { createTrajectory } from "@/prisma/seed/factories";
import { loadSamples } from "@/prisma/seed/load-samples";
import { seedSamples } from "@/prisma/seed/seed-samples";
import { useTestDatabase } from "@/tests/db";
import { main } from "./main";

const t = useTestDatabase();
const dir = mkdtempSync(path.join(tmpdir(), "envstudio-dataset-cli-"));

beforeAll(async () => {
  process.env.DATABASE_URL = t.url;
  const project = await getDefaultProject(t.db);
  await seedSamples(t.db, {
    projectId: project.id,
    samples: loadSamples(),
    toolsFor: () => Promise.resolve([]),
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const rowCounts = async () => [
  await t.db.environment.count(),
  await t.db.scenario.count(),
  await t.db.validatorVersion.count(),
];

describe("envstudio dataset", () => {
  it("rejects bad verbs and flags with one line and exit code 2", async () => {
    expect(await cli("dataset", "frob")).toMatchObject({
      code: 2,
      err: expect.stringContaining("usage: envstudio dataset list | dataset create") as unknown,
    });
    expect(await cli("dataset", "create", "--name", "x", "--bogus")).toMatchObject({
      code: 2,
      err: expect.stringContaining("Unknown option '--bogus'") as unknown,
    });
    expect(await cli("dataset", "create")).toMatchObject({
      code: 2,
      err: expect.stringContaining("missing --name") as unknown,
    });
    expect(await cli("dataset", "create", "--name", "x", "--seed", "NaN")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--seed must be an integer (got NaN)") as unknown,
    });
  });

  it("refuses a dataset with nothing eligible, then creates one from unverified samples and lists it", async () => {
    expect(await cli("dataset", "create", "--name", "cli")).toMatchObject({
      code: 1,
      err: expect.stringContaining("No accepted, verified scenarios match") as unknown,
    });
    expect(await t.db.datasetVersion.count()).toBe(0);
    const created = await cli(
      "dataset",
      "create",
      "--name",
      "cli",
      "--seed",
      "7",
      "--test-ratio",
      "0.34",
      "--allow-unverified",
    );
    expect(created).toMatchObject({ code: 0, err: "" });
    const items = await t.db.datasetItem.count();
    expect(items).toBeGreaterThan(0);
    // Printed stats are the stored JSON (key order is Postgres's): find the top-level total.
    expect(
      (JSON.parse(created.out.split("\n")[0]!.replace(/^created cli v1: /, "")) as { scenarios: number })
        .scenarios,
    ).toBe(items);
    expect(await cli("dataset", "list")).toEqual({ code: 0, out: `cli\tv1\t${items} scenarios`, err: "" });
  });
});

describe("envstudio export", () => {
  it("rejects bad flags (exit code 2) and a missing dataset (exit code 1)", async () => {
    expect(await cli("export", "--dataset", "cli", "--out", dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining("missing --format") as unknown,
    });
    expect(await cli("export", "--dataset", "cli", "--format", "csv", "--out", dir)).toMatchObject({
      code: 2,
      err: expect.stringContaining("--format must be one of envscaler, openai") as unknown,
    });
    expect(
      await cli("export", "--dataset", "cli", "--format", "envscaler", "--out", dir, "--version", "x"),
    ).toMatchObject({ code: 2, err: expect.stringContaining("--version must be a whole number") as unknown });
    expect(
      await cli("export", "--dataset", "nope", "--format", "envscaler", "--out", path.join(dir, "nope")),
    ).toMatchObject({ code: 1, err: 'envstudio export: Dataset "nope" was not found.' });
    expect(existsSync(path.join(dir, "nope"))).toBe(false);
  });

  it("writes an EnvScaler folder holding every item, and a tar when --out ends in .tar", async () => {
    const out = path.join(dir, "envscaler");
    const result = await cli("export", "--dataset", "cli", "--format", "envscaler", "--out", out);
    expect(result).toMatchObject({ code: 0, err: "" });
    const items = await t.db.datasetItem.count({ where: { datasetVersion: { dataset: { name: "cli" } } } });
    expect(result.out).toContain(`exported cli v1 as ENVSCALER_JSON: ${items} scenarios`);
    expect(
      ["train", "test"].flatMap(
        (split) =>
          JSON.parse(readFileSync(path.join(out, `scenario_metadata_${split}.json`), "utf8")) as unknown[],
      ),
    ).toHaveLength(items);
    expect(
      Object.keys(JSON.parse(readFileSync(path.join(out, "env_metadata.json"), "utf8")) as object).length,
    ).toBeGreaterThan(0);

    const tar = path.join(dir, "cli.tar");
    expect(
      await cli("export", "--dataset", "cli", "--version", "1", "--format", "hf", "--out", tar),
    ).toMatchObject({ code: 0, err: "" });
    const bytes = readFileSync(tar);
    expect(bytes.length % 512).toBe(0);
    expect(bytes.subarray(0, 100).toString("utf8")).toMatch(/^cli-v1-hf_dataset\//);
    expect(existsSync(`${tar}.tmp`)).toBe(false);
    // No trajectories: a trajectory format fails with its reason instead of writing empty files.
    const empty = await cli(
      "export",
      "--dataset",
      "cli",
      "--format",
      "openai",
      "--out",
      path.join(dir, "openai"),
    );
    expect(empty).toMatchObject({
      code: 1,
      err: expect.stringContaining("is built from trajectories; dataset version 1 has none") as unknown,
    });
  });
});

describe("envstudio import", () => {
  const notes = path.join(dir, "notes");
  beforeAll(() => {
    mkdirSync(notes, { recursive: true });
    writeFileSync(
      path.join(notes, "environment.py"),
      'class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def list_notes(self) -> dict:\n        """List notes."""\n        return {\'success\': True, \'data\': self.notes}\n',
    );
    writeFileSync(
      path.join(notes, "scenarios.json"),
      JSON.stringify([
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
      ]),
    );
  });

  it("rejects missing arguments, paths and --on-existing choices with exit code 2", async () => {
    expect(await cli("import")).toMatchObject({
      code: 2,
      err: expect.stringContaining("usage: envstudio import FILE|FOLDER") as unknown,
    });
    expect(await cli("import", path.join(dir, "absent.json"))).toMatchObject({
      code: 2,
      err: expect.stringContaining("not found:") as unknown,
    });
    expect(await cli("import", notes, "--on-existing", "overwrite")).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        "--on-existing must be fail or new-name or new-version (got overwrite)",
      ) as unknown,
    });
  });

  it("reports a malformed file with its location and writes nothing", async () => {
    const bad = path.join(dir, "env_metadata.json");
    writeFileSync(bad, '{\n  "x": {\n    "env_id": "x",\n  }\n}\n');
    const before = await rowCounts();
    const result = await cli("import", bad);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^envstudio import: .*env_metadata\.json:\d+: not valid JSON \(line \d+, column \d+\).* \(nothing was written\)$/,
    );
    expect(await rowCounts()).toEqual(before);
  }, 60_000);

  it("imports a Python environment folder, proves it in the sandbox and prints what it did", async () => {
    const before = await t.db.environment.count();
    const result = await cli("import", notes);
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toMatch(
      /^imported 1 environments \(notes\) and 1 scenarios, all waiting for review\nproved in the sandbox \(run \w+\): 0 verified, 1 failed/,
    );
    expect(await t.db.environment.count()).toBe(before + 1);
    expect(await t.db.environment.findFirstOrThrow({ where: { slug: "notes" } })).toMatchObject({
      status: "IN_REVIEW",
      origin: "IMPORT",
    });
    // No gold calls in the folder and a check that holds on the initial state: proven, and failed.
    const scenario = await t.db.scenario.findFirstOrThrow({
      where: { environment: { slug: "notes" } },
      include: { proofs: true },
    });
    expect(scenario).toMatchObject({ status: "IN_REVIEW", proofStatus: "FAILED" });
    expect(scenario.proofs).toHaveLength(1);
  }, 60_000);

  it("refuses to re-import an existing environment unless --on-existing says new-name or new-version", async () => {
    const environments = await t.db.environment.count();
    const refused = await cli("import", notes);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /environment "notes" already exists.*\(nothing was written; rerun with --on-existing new-name or --on-existing new-version\)$/,
    );
    expect(await cli("import", notes, "--on-existing", "fail")).toMatchObject({ code: 1 });
    expect(await t.db.environment.count()).toBe(environments);

    const renamed = await cli("import", notes, "--on-existing", "new-name");
    expect(renamed).toMatchObject({ code: 0, err: "" });
    expect(renamed.out).toMatch(/^imported 1 environments \(notes-2\) and 1 scenarios/);
    expect(await t.db.environment.count()).toBe(environments + 1);

    const versioned = await cli("import", notes, "--on-existing", "new-version");
    expect(versioned).toMatchObject({ code: 0, err: "" });
    expect(versioned.out).toMatch(/^imported 1 environments \(notes as new version 2\) and 0 scenarios/);
    expect(await t.db.environment.count()).toBe(environments + 1);
    const notesEnv = await t.db.environment.findFirstOrThrow({
      where: { slug: "notes" },
      include: { currentVersion: true },
    });
    expect(notesEnv.currentVersion).toMatchObject({ version: 2, producedBy: "import" });
  }, 120_000);
});

// Last: the rollouts it stores would change what the export tests above expect.
describe("envstudio dataset create with difficulty", () => {
  it("--exclude-zero-signal leaves out what every counted rollout solved and says how many; G < 2 starts nothing", async () => {
    const before = await t.db.datasetVersion.count();
    expect(await cli("dataset", "create", "--name", "zs", "--group-size", "1")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--group-size must be an integer of at least 2 (got 1)") as unknown,
    });
    expect(await t.db.datasetVersion.count()).toBe(before);
    const [solved, mixed] = await t.db.scenario.findMany({ orderBy: { externalId: "asc" }, take: 2 });
    for (const reward of [1, 1, 1]) await createTrajectory(t.db, solved!.id, { reward });
    for (const reward of [1, 0, 1]) await createTrajectory(t.db, mixed!.id, { reward });
    const created = await cli(
      "dataset",
      "create",
      "--name",
      "zs",
      "--allow-unverified",
      "--exclude-zero-signal",
      "--group-size",
      "4",
    );
    expect(created).toMatchObject({ code: 0, err: "" });
    expect(created.out).toContain("difficulty: 1 scenario(s) excluded as zero-signal");
    expect(created.out).toContain("expected zero-signal groups at G=4");
    const version = await t.db.datasetVersion.findFirstOrThrow({ where: { dataset: { name: "zs" } } });
    const items = await t.db.datasetItem.findMany({ where: { datasetVersionId: version.id } });
    expect(items.map((i) => i.scenarioId)).not.toContain(solved!.id);
    expect(items.find((i) => i.scenarioId === mixed!.id)?.difficulty).toMatchObject({
      n: 3,
      successes: 2,
      group_size: 4,
    });
  });
});

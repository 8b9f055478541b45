/**
 * Datasets from the browser: a fresh start proves the seeded samples (proof runs as jobs), so a
 * dataset made from them needs no override; read its statistics, export it as EnvScaler JSON, watch the job to
 * the end, download the tar and parse it; then refuse a malformed import with a located error.
 * Creates one uniquely named dataset; the environments the re-import test writes are deleted again.
 */
import { readFileSync } from "node:fs";
import { createTrajectory } from "../prisma/seed/factories";
import { loadSamples } from "../prisma/seed/load-samples";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { untar } from "./untar";

test("create a dataset from the samples, export EnvScaler JSON, watch it finish and download it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `e2e-${Date.now()}`;
  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "New dataset" });

  // Bad input is refused with the rule, before anything is written.
  await form.getByLabel("Name", { exact: true }).fill("not a name!");
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByRole("alert")).toContainText("use letters, digits, dot, dash or underscore");
  await expect(form.getByRole("button", { name: "Create dataset" })).toBeDisabled();

  // The studio proved the samples itself after its first start (one proof run per sample).
  const projectId = await defaultProjectId();
  const sampleSlugs = loadSamples().map((s) => s.slug);
  const unproven = () =>
    e2eDb().scenario.count({
      where: {
        environment: { projectId, slug: { in: sampleSlugs } },
        status: { not: "REJECTED" },
        proofStatus: { not: "VERIFIED" },
      },
    });
  await expect.poll(unproven, { timeout: 90_000, intervals: [500] }).toBe(0);

  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByTestId("preview-summary")).toBeVisible();
  await expect(form.getByTestId("preview-excluded-row").filter({ hasText: "proof" })).toHaveCount(0);
  await expect(form.getByLabel(/Override reason/)).toHaveCount(0);
  const previewed = Number(
    /^Includes (\d+)/.exec((await form.getByTestId("preview-summary").textContent()) ?? "")?.[1],
  );
  await form.getByRole("button", { name: "Create dataset" }).click();
  await expect(page).toHaveURL(/\/datasets\/[^/]+$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();

  const version = page.getByTestId("version-row").first();
  await expect(version).toContainText("v1");
  const total = Number(await version.getByTestId("stat-scenarios").textContent());
  expect(total).toBeGreaterThan(0);
  expect(total).toBe(previewed);
  // Split by environment: both sides are non-empty and add up to the total.
  const side = async (id: string) =>
    Number(/^(\d+) scen/.exec((await version.getByTestId(id).textContent()) ?? "")?.[1]);
  expect((await side("stat-train")) + (await side("stat-test"))).toBe(total);

  // Before any click, the picker says which formats cannot work yet for this version and what fixes
  // them: the samples have no rollouts, so the SFT formats need trajectories first.
  const exportButton = page.getByRole("button", { name: "Export", exact: true });
  await page.getByLabel("Export format").selectOption("OPENAI_JSONL");
  await expect(page.getByTestId("readiness-note")).toContainText(
    "Needs agent trajectories: OpenAI chat fine-tuning JSONL is built from rollouts",
  );
  await expect(page.getByTestId("readiness-fix")).toContainText("Run rollouts on");
  await expect(page.getByTestId("readiness-fix").getByRole("link").first()).toHaveAttribute(
    "href",
    /^\/environments\/[^/]+$/,
  );
  await expect(exportButton).toBeDisabled();
  await expect(exportButton).toHaveAttribute("title", /Needs agent trajectories/);
  await expect(page.getByTestId("readiness-blocked")).toHaveText(
    "Not possible yet for this version: OpenAI chat fine-tuning JSONL, LlamaFactory ShareGPT.",
  );
  await expect(
    page.getByLabel("Export format").locator("option", { hasText: "(not possible yet)" }),
  ).toHaveCount(2);
  // EnvScaler works without them and says what it will leave out.
  await page.getByLabel("Export format").selectOption("ENVSCALER_JSON");
  await expect(page.getByTestId("readiness-note")).toContainText(
    "has no SFT trajectories yet: the export holds its environments and scenarios, and no sft_traj files.",
  );
  await expect(exportButton).toBeEnabled();
  await exportButton.click();
  const row = page.getByTestId("export-row").first();
  await expect(row.getByTestId("export-status")).toHaveText(/Succeeded/, { timeout: 60_000 });
  await expect(row.getByTestId("export-progress")).toHaveText(`${total}/${total}`);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}-v1-envscaler-json.tar`);
  const files = untar(readFileSync(await download.path()));
  // One scenario file per split (EnvScaler ignores `split`).
  const scenarios = ["train", "test"].flatMap(
    (split) =>
      JSON.parse(files.get(`${name}-v1-envscaler-json/scenario_metadata_${split}.json`) ?? "null") as {
        env_id: string;
        task: string;
      }[],
  );
  expect(scenarios).toHaveLength(total);
  const envs = JSON.parse(files.get(`${name}-v1-envscaler-json/env_metadata.json`) ?? "null") as Record<
    string,
    { env_class_code: string }
  >;
  expect(Object.keys(envs).sort()).toEqual([...new Set(scenarios.map((s) => s.env_id))].sort());
  // No trajectories: no empty sft_traj files, and the manifest says why.
  expect([...files.keys()].filter((f) => f.includes("sft_traj"))).toEqual([]);
  const manifest = JSON.parse(files.get(`${name}-v1-envscaler-json/envstudio_dataset.json`) ?? "null") as {
    files: { sft_trajectories: { note?: string } };
  };
  expect(manifest.files.sft_trajectories.note).toContain("no sft_traj files were written");

  // Editing makes v2 (v1 is immutable): drop one scenario and read the changelog.
  const edit = page.getByRole("form", { name: "New version" });
  await edit.getByText(/^Exclude scenarios/).click();
  await edit.getByRole("checkbox").last().check();
  await edit.getByRole("button", { name: "Preview" }).click();
  await expect(edit.getByTestId("preview-excluded-row").filter({ hasText: "left out by you" })).toHaveCount(
    1,
  );
  await edit.getByRole("button", { name: "Create new version" }).click();
  const v2 = page.getByTestId("version-row").first();
  await expect(v2).toContainText("v2");
  await expect(v2.getByTestId("stat-scenarios")).toHaveText(String(total - 1));
  await expect(v2.getByTestId("changelog")).toContainText("Since v1: −1 removed");
  await expect(page.getByTestId("version-row").nth(1).getByTestId("stat-scenarios")).toHaveText(
    String(total),
  );
  // Any version can be exported, not only the latest.
  await page.getByLabel("Export version").selectOption({ label: "v1" });
  await page.getByLabel("Export format").selectOption("HF_DATASET");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const olderExport = page.getByTestId("export-row").first();
  await expect(olderExport.getByRole("cell").nth(1)).toHaveText("Hugging Face dataset folder");
  await expect(olderExport.getByRole("cell").first()).toHaveText("v1");
  await expect(olderExport.getByTestId("export-status")).toHaveText(/Succeeded/, { timeout: 60_000 });

  // The same name again is a conflict, not a silent new version.
  await page.goto("/datasets");
  await expect(page.getByTestId("dataset-row").filter({ hasText: name }).getByRole("cell").nth(1)).toHaveText(
    "v2",
  );
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Preview" }).click();
  await form.getByRole("button", { name: "Create dataset" }).click();
  await expect(form.getByRole("alert")).toContainText(`"${name}" already exists`);
});

test("a malformed EnvScaler file is refused with its location and nothing is written", async ({
  page,
  request,
}) => {
  const environments = async () =>
    ((await (await request.get("/api/environments?pageSize=1")).json()) as { total: number }).total;
  const before = await environments();
  await page.goto("/datasets/import");
  await page.getByLabel("Import files").setInputFiles({
    name: "env_metadata.json",
    mimeType: "application/json",
    buffer: Buffer.from('{\n  "x": {\n    "env_id": "x",\n  }\n}\n'),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const alert = page.getByRole("form", { name: "Import" }).getByRole("alert");
  await expect(alert).toContainText("Import refused: nothing was written");
  await expect(alert).toContainText(/env_metadata\.json:\d+: not valid JSON \(line \d+, column \d+\)/);
  expect(await environments()).toBe(before);
});

test("re-importing an existing environment offers a new name or a new version, and links to what was imported", async ({
  page,
}) => {
  const envId = unique("reimport");
  const source = (doc: string) =>
    `class Notes:\n    def __init__(self):\n        self.notes = {}\n\n    def list_notes(self) -> dict:\n        """${doc}"""\n        return {'success': True, 'data': self.notes}\n`;
  const scenarios = JSON.stringify([
    {
      task_id: "n1",
      init_config: { notes: {} },
      task: "List the notes.",
      checklist_with_func: [
        { check_item: "Listed?", check_func: "def check_func(final_state):\n    return True\n" },
      ],
    },
  ]);
  const upload = async (doc: string) => {
    // A fresh page per upload: React resets the form's fields after the previous submission.
    await page.goto("/datasets/import");
    await page.getByLabel("Import files").setInputFiles([
      { name: "environment.py", mimeType: "text/x-python", buffer: Buffer.from(source(doc)) },
      { name: "scenarios.json", mimeType: "application/json", buffer: Buffer.from(scenarios) },
    ]);
    await page.getByLabel(/Environment id/).fill(envId);
    await page.getByRole("button", { name: "Import", exact: true }).click();
  };
  try {
    await upload("List notes.");
    await expect(
      page.getByTestId("import-summary").getByRole("link", { name: envId, exact: true }),
    ).toBeVisible();
    // Nothing imported is trusted: the summary links to the proof run that proves it here.
    await expect(page.getByTestId("import-summary").getByRole("link", { name: "proof run" })).toHaveAttribute(
      "href",
      /^\/runs\/[^/]+$/,
    );

    await upload("List all notes.");
    const alert = page.getByRole("form", { name: "Import" }).getByRole("alert");
    await expect(alert).toContainText(`environment "${envId}" already exists`);
    await alert.getByRole("button", { name: `Import as a new version of ${envId}` }).click();
    const summary = page.getByTestId("import-summary");
    await expect(summary).toContainText(`${envId} — new version 2, back in the review queue`);
    await summary.getByRole("link", { name: envId, exact: true }).click();
    await expect(page).toHaveURL(/\/environments\/[^/]+$/);
    await expect(page.getByText(/· version 2 ·/)).toBeVisible();

    await upload("List notes again.");
    await page
      .getByRole("form", { name: "Import" })
      .getByRole("alert")
      .getByRole("button", { name: "Import under a new name" })
      .click();
    await expect(page.getByTestId("import-summary").getByRole("link", { name: `${envId}-2` })).toBeVisible();
  } finally {
    const envs = await e2eDb().environment.findMany({
      where: { slug: { startsWith: envId } },
      select: { id: true },
    });
    await deleteEnvironments(envs.map((e) => e.id));
  }
});

test("the preview shows each scenario's difficulty and leaves out zero-signal scenarios with the count", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const sampleSlugs = loadSamples().map((s) => s.slug);
  const verified = () =>
    db.scenario.findMany({
      where: {
        environment: { projectId, slug: { in: sampleSlugs } },
        status: "ACCEPTED",
        proofStatus: "VERIFIED",
      },
      orderBy: { externalId: "asc" },
      include: { environment: { select: { slug: true } } },
    });
  await expect
    .poll(async () => (await verified()).length, { timeout: 90_000, intervals: [500] })
    .toBeGreaterThan(1);
  const [solved, mixed] = await verified();
  const model = unique("e2e-model");
  // Rollouts on exactly the scenarios' pins, under a model of this test only (deleted again below).
  for (const reward of [1, 1, 1, 1])
    await createTrajectory(db, solved!.id, { reward, model, sftPass: false });
  for (const reward of [1, 0, 0, 0]) await createTrajectory(db, mixed!.id, { reward, model, sftPass: false });
  try {
    await page.goto("/datasets");
    const form = page.getByRole("form", { name: "New dataset" });
    await form.getByLabel("Name", { exact: true }).fill(unique("signal"));
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(form.getByTestId("preview-difficulty")).toContainText("0 left out as zero-signal");
    const solvedKey = `${solved!.environment.slug}/${solved!.externalId}`;
    await expect(form.getByTestId("preview-included-row").filter({ hasText: solvedKey })).toBeVisible();
    await form.getByLabel("Leave out zero-signal scenarios").check();
    await form.getByLabel("Group size G").fill("4");
    await form.getByRole("button", { name: "Apply difficulty filters" }).click();
    await expect(form.getByTestId("preview-difficulty")).toContainText("zero-signal groups at G=4");
    await expect(form.getByTestId("preview-excluded-row").filter({ hasText: solvedKey })).toContainText(
      "no learning signal: all",
    );
    await expect(form.getByTestId("preview-included-row").filter({ hasText: solvedKey })).toHaveCount(0);
    const mixedRow = form
      .getByTestId("preview-included-row")
      .filter({ hasText: `${mixed!.environment.slug}/${mixed!.externalId}` });
    await expect(mixedRow.getByTestId("preview-success-rate")).not.toHaveText("–");
  } finally {
    await db.trajectory.deleteMany({ where: { model } });
  }
});

/**
 * The curator's way from a fresh start to an exported dataset with the keyboard only: Tab, Shift+Tab,
 * Enter, Space, Escape and arrow keys (page.goto opens the first page; nothing is clicked). Every
 * control reached shows a focus ring; the row panel takes focus when it opens and gives it back.
 */
import { readFileSync } from "node:fs";
import { loadSamples } from "../prisma/seed/load-samples";
import { defaultProjectId, e2eDb } from "./db";
import { expect, test } from "./fixtures";
import { expectFocusRing, focusProblems, tabTo } from "./keyboard";
import { untar } from "./untar";

test.beforeEach(() => {
  focusProblems.length = 0;
});

test("fresh start → proven samples → dataset preview → create dataset → row panel → export, by keyboard", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const name = `kbd-${Date.now()}`;
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  // The fresh studio proves its samples by itself (one proof run per sample).
  const projectId = await defaultProjectId();
  const sampleSlugs = loadSamples().map((s) => s.slug);
  await expect
    .poll(
      () =>
        e2eDb().scenario.count({
          where: {
            environment: { projectId, slug: { in: sampleSlugs } },
            status: { not: "REJECTED" },
            proofStatus: { not: "VERIFIED" },
          },
        }),
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(0);

  // The proven samples, from the main navigation.
  const nav = page.getByRole("navigation", { name: "Main" });
  await tabTo(page, nav.getByRole("link", { name: "Scenarios" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/scenarios$/);
  await expect(page.getByRole("heading", { name: "Scenarios" })).toBeVisible();

  // Shift+Tab back up from the page to the nav, on to Datasets.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await tabTo(page, nav.getByRole("link", { name: "Datasets" }), { backwards: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/datasets$/);

  // Preview, then create exactly what was previewed.
  const form = page.getByRole("form", { name: "New dataset" });
  await tabTo(page, form.getByLabel("Name", { exact: true }));
  await page.keyboard.type(name);
  await tabTo(page, form.getByRole("button", { name: "Preview" }));
  await page.keyboard.press("Enter");
  await expect(form.getByTestId("preview-summary")).toBeVisible();
  await expect(form.getByTestId("preview-excluded-row").filter({ hasText: "proof" })).toHaveCount(0);
  const previewed = Number(
    /^Includes (\d+)/.exec((await form.getByTestId("preview-summary").textContent()) ?? "")?.[1],
  );
  expect(previewed).toBeGreaterThan(0);
  await tabTo(page, form.getByRole("button", { name: "Create dataset" }));
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/\/datasets\/[^/]+$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();

  // The version's rows: search, open one in the side panel, and come back to it with Escape.
  const rows = page.getByTestId("version-item");
  await expect(rows).toHaveCount(Math.min(previewed, 25));
  await expect(page.getByTestId("row-count")).toHaveText(`${previewed} ${previewed === 1 ? "row" : "rows"}`);
  const firstTask = rows.first().getByRole("button");
  const taskId = (await firstTask.textContent()) ?? "";
  await tabTo(page, page.getByRole("searchbox", { name: "Search the rows of v1" }));
  await page.keyboard.type(taskId);
  await expect(page.getByTestId("row-count")).toHaveText("1 row");
  await tabTo(page, rows.first().getByRole("button", { name: taskId }));
  await page.keyboard.press("Enter");
  const panel = page.getByTestId("version-row-panel");
  await expect(panel.getByRole("heading", { name: new RegExp(`/ ${taskId}$`) })).toBeFocused();
  await expect(panel.getByTestId("row-task")).not.toBeEmpty();
  await expect(panel.getByTestId("row-checks").getByRole("listitem").first()).toBeVisible();
  await tabTo(page, panel.getByRole("link", { name: "Open the scenario" }));
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(rows.first().getByRole("button", { name: taskId })).toBeFocused();
  await expectFocusRing(rows.first().getByRole("button", { name: taskId }));

  // Export EnvScaler JSON: the format picked with arrow keys, the export started with Enter.
  const format = page.getByLabel("Export format");
  await tabTo(page, format);
  for (let i = 0; i < 12 && (await format.inputValue()) !== "ENVSCALER_JSON"; i++)
    await page.keyboard.press(i < 6 ? "ArrowDown" : "ArrowUp");
  await expect(format).toHaveValue("ENVSCALER_JSON");
  const exportButton = page.getByRole("button", { name: "Export", exact: true });
  await tabTo(page, exportButton);
  await page.keyboard.press("Enter");
  const exportRow = page.getByTestId("export-row").first();
  await expect(exportRow.getByTestId("export-status")).toHaveText(/Succeeded/, { timeout: 60_000 });
  await expect(exportRow.getByTestId("export-progress")).toHaveText(`${previewed}/${previewed}`);

  const download = exportRow.getByRole("link", { name: "Download" });
  await tabTo(page, download);
  const [file] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  expect(file.suggestedFilename()).toBe(`${name}-v1-envscaler-json.tar`);
  const files = untar(readFileSync(await file.path()));
  const scenarios = ["train", "test"].flatMap(
    (split) =>
      JSON.parse(files.get(`${name}-v1-envscaler-json/scenario_metadata_${split}.json`) ?? "[]") as {
        task_id: string;
      }[],
  );
  expect(scenarios).toHaveLength(previewed);
  expect(scenarios.map((s) => s.task_id)).toContain(taskId);
  // Every element focus passed on the way showed where it was.
  expect(focusProblems).toEqual([]);
});

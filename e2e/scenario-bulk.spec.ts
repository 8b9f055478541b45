/**
 * Bulk "Add to dataset" from the Scenarios list, with the mouse: a dataset made from one sample
 * environment gets a scenario of another ticked on Scenarios; the reply names the new version and
 * the database holds it with both environments' items.
 */
import { loadSamples } from "../prisma/seed/load-samples";
import { defaultProjectId, deleteDatasets, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

test("ticked scenarios go into a dataset's next version from the Scenarios list", async ({ page }) => {
  test.setTimeout(150_000);
  const projectId = await defaultProjectId();
  const [first, second] = loadSamples().map((s) => s.slug);
  // The studio proves its samples after the first start: wait for those proofs.
  await expect
    .poll(
      () =>
        e2eDb().scenario.count({
          where: {
            environment: { projectId, slug: { in: [first!, second!] } },
            status: { not: "REJECTED" },
            proofStatus: { not: "VERIFIED" },
          },
        }),
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(0);

  const name = unique("from-list");
  try {
    await page.goto("/datasets");
    const form = page.getByRole("form", { name: "New dataset" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByRole("checkbox", { name: new RegExp(`\\b${first}\\b`) }).check();
    await form.getByRole("button", { name: "Preview" }).click();
    await expect(form.getByTestId("preview-summary")).toBeVisible();
    await form.getByRole("button", { name: "Create dataset" }).click();
    await expect(page).toHaveURL(/\/datasets\/[^/]+$/);

    const target = await e2eDb().scenario.findFirstOrThrow({
      where: { environment: { projectId, slug: second! }, status: "ACCEPTED" },
      orderBy: { externalId: "asc" },
    });
    await page.goto(`/scenarios?q=${encodeURIComponent(target.externalId)}`);
    await page.getByRole("checkbox", { name: `Select ${target.externalId}` }).check();
    await page.getByLabel("Dataset", { exact: true }).selectOption({ label: name });
    await page.getByRole("button", { name: "Add selected to dataset" }).click();
    await expect(page.getByTestId("scenario-bulk-result")).toHaveText(`Added 1 of 1 to ${name} v2.`);

    const dataset = await e2eDb().dataset.findFirstOrThrow({ where: { projectId, name } });
    const v2 = await e2eDb().datasetVersion.findFirstOrThrow({
      where: { datasetId: dataset.id, version: 2 },
      include: { items: { include: { scenario: { include: { environment: true } } } } },
    });
    const slugs = new Set(v2.items.map((i) => i.scenario.environment.slug));
    expect([...slugs].sort()).toEqual([first, second].sort());
    expect(v2.items.filter((i) => i.scenario.environment.slug === second).map((i) => i.scenarioId)).toEqual([
      target.id,
    ]);
  } finally {
    await deleteDatasets([name]);
  }
});

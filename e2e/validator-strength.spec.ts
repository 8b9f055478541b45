/**
 * Validator strength from the browser: the first start proves the samples, near-misses included;
 * a sample scenario's page shows how many near-misses its checks reject, and the dataset preview
 * shows each included item's strength with a filter for the weak ones (which still enter).
 */
import { Prisma } from "../lib/db";
import { loadSamples } from "../prisma/seed/load-samples";
import { defaultProjectId, e2eDb } from "./db";
import { expect, test } from "./fixtures";

async function waitForSampleProofs() {
  const projectId = await defaultProjectId();
  const slugs = loadSamples().map((s) => s.slug);
  const unmeasured = () =>
    e2eDb().scenario.count({
      where: {
        environment: { projectId, slug: { in: slugs } },
        status: { not: "REJECTED" },
        OR: [
          { proofStatus: { not: "VERIFIED" } },
          { proofs: { none: { nearMiss: { not: Prisma.DbNull } } } },
        ],
      },
    });
  await expect.poll(unmeasured, { timeout: 150_000, intervals: [1000] }).toBe(0);
}

test("a sample scenario's page shows its validator strength", async ({ page }) => {
  test.setTimeout(180_000);
  await waitForSampleProofs();
  const scenario = await e2eDb().scenario.findFirstOrThrow({
    where: { environment: { projectId: await defaultProjectId(), slug: "library-lending" } },
    orderBy: { externalId: "asc" },
  });
  await page.goto(`/scenarios/${scenario.id}`);
  const panel = page.getByTestId("strength-panel");
  await expect(panel).toContainText(/\d+\/\d+ near-misses rejected/);
  await expect(panel.locator("tbody tr")).not.toHaveCount(0);
});

test("the dataset preview shows strength per item and filters the weak validators", async ({ page }) => {
  test.setTimeout(180_000);
  await waitForSampleProofs();
  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "New dataset" });
  await form.getByLabel("Name", { exact: true }).fill(`e2e-strength-${Date.now()}`);
  await form.getByRole("button", { name: "Preview" }).click();
  const rows = form.getByTestId("preview-included-row");
  await expect(rows.first()).toBeVisible();
  const all = await rows.count();
  await expect(rows.getByTestId("strength-badge")).toHaveCount(all);
  await expect(rows.first()).toContainText(/near-misses rejected|no near-misses derivable/);

  const filter = form.getByTestId("preview-filter-weak");
  const weak = Number(/\((\d+)\)/.exec((await filter.textContent()) ?? "")?.[1]);
  await filter.click();
  await expect(rows).toHaveCount(weak);
  for (const row of await rows.all()) await expect(row).toContainText("weak validator");
  await form.getByRole("radio", { name: /All included/ }).click();
  await expect(rows).toHaveCount(all);
});

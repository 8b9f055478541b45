/**
 * Validator strength from the browser: the first start proves the samples without near-misses (they
 * would hold the sandbox pool while the studio is first used), so a sample scenario shows "not
 * measured" until a person proves its validators; proving library-lending from its page measures
 * them. Its scenario page then shows how many near-misses its checks reject, and the dataset preview
 * shows each included item's strength with a filter for the weak ones (which still enter).
 */
import type { Page } from "@playwright/test";
import { defaultProjectId, e2eDb } from "./db";
import { expect, test } from "./fixtures";
import { proveFromEnvironmentPage } from "./launch-proof";

const SLUG = "library-lending";

/** Library-lending's scenarios whose current versions have no near-miss evidence yet. */
async function unmeasured() {
  return e2eDb().scenario.count({
    where: {
      environment: { projectId: await defaultProjectId(), slug: SLUG },
      status: { not: "REJECTED" },
      OR: [
        { proofStatus: { not: "VERIFIED" } },
        { proofs: { none: { nearMiss: { path: ["status"], equals: "MEASURED" } } } },
      ],
    },
  });
}

/** Proves library-lending's validators from its page (once per server) and waits for the run. */
async function measureLibrary(page: Page) {
  if ((await unmeasured()) === 0) return;
  const env = await e2eDb().environment.findFirstOrThrow({
    where: { projectId: await defaultProjectId(), slug: SLUG },
  });
  await page.goto(`/environments/${env.id}`);
  await proveFromEnvironmentPage(page);
  await expect.poll(unmeasured).toBe(0);
}

test("a sample scenario's page shows its validator strength once its validators are proven", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const scenario = await e2eDb().scenario.findFirstOrThrow({
    where: { environment: { projectId: await defaultProjectId(), slug: SLUG } },
    orderBy: { externalId: "asc" },
  });
  await measureLibrary(page);
  await page.goto(`/scenarios/${scenario.id}`);
  const panel = page.getByTestId("strength-panel");
  await expect(panel).toContainText(/\d+\/\d+ near-misses rejected/);
  await expect(panel.locator("tbody tr")).not.toHaveCount(0);
});

test("the dataset preview shows strength per item and filters the weak validators", async ({ page }) => {
  test.setTimeout(300_000);
  await measureLibrary(page);
  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "New dataset" });
  await form.getByLabel("Name", { exact: true }).fill(`e2e-strength-${Date.now()}`);
  await form.getByRole("button", { name: "Preview" }).click();
  const rows = form.getByTestId("preview-included-row");
  await expect(rows.first()).toBeVisible();
  const all = await rows.count();
  await expect(rows.getByTestId("strength-badge")).toHaveCount(all);
  await expect(rows.filter({ hasText: SLUG }).first()).toContainText(/near-misses rejected/);

  const filter = form.getByTestId("preview-filter-weak");
  const weak = Number(/\((\d+)\)/.exec((await filter.textContent()) ?? "")?.[1]);
  await filter.click();
  await expect(rows).toHaveCount(weak);
  for (const row of await rows.all()) await expect(row).toContainText("weak validator");
  await form.getByRole("radio", { name: /All included/ }).click();
  await expect(rows).toHaveCount(all);
});

/**
 * A corpus with look-alike environments: two environments sharing a name are told apart by their
 * env_id wherever they are listed, and the review queue and the Scenarios page are searchable.
 */
import { copySample, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

test("environments sharing a name show their env_id; the queue and Scenarios find them by search", async ({
  page,
}) => {
  const a = await copySample("clinic-scheduling");
  const b = await copySample("clinic-scheduling");
  const shared = unique("Twin clinic");
  try {
    // Same name, both waiting for review.
    await e2eDb().environment.updateMany({
      where: { id: { in: [a.id, b.id] } },
      data: { name: shared, status: "IN_REVIEW" },
    });

    await page.goto("/environments");
    await page.getByLabel("Search environments").fill(shared);
    const rows = page.getByTestId("environment-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: a.slug })).toHaveCount(1);
    await expect(rows.filter({ hasText: b.slug })).toHaveCount(1);

    await page.goto("/review?kind=environment");
    await page.getByRole("searchbox", { name: "Search the queue" }).fill(shared);
    await page.getByRole("searchbox", { name: "Search the queue" }).press("Enter");
    await expect(page).toHaveURL(/[?&]q=/);
    const items = page.getByTestId("queue-item");
    await expect(items).toHaveCount(2);
    await expect(items.filter({ hasText: `${shared} (${a.slug})` })).toHaveCount(1);
    await expect(items.filter({ hasText: `${shared} (${b.slug})` })).toHaveCount(1);

    // Scenarios: by env_id only one environment's rows; by the shared name both, told apart.
    await page.goto("/scenarios");
    await page.getByRole("searchbox", { name: "Search scenarios" }).fill(a.slug);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${a.slug}`));
    const scenarioRows = page.getByTestId("scenario-table").locator("tbody tr");
    const perEnvironment = await e2eDb().scenario.count({ where: { environmentId: a.id } });
    await expect(scenarioRows).toHaveCount(perEnvironment);
    await expect(scenarioRows.filter({ hasText: b.slug })).toHaveCount(0);

    await page.getByRole("searchbox", { name: "Search scenarios" }).fill(shared);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(scenarioRows).toHaveCount(2 * perEnvironment);
    await expect(scenarioRows.filter({ hasText: `(${b.slug})` })).toHaveCount(perEnvironment);
    // The proof filter keeps the search.
    await page
      .getByRole("navigation", { name: "Proof status" })
      .getByRole("link", { name: "pending" })
      .click();
    await expect(page).toHaveURL(/proof=PENDING/);
    await expect(page).toHaveURL(/q=/);
  } finally {
    await deleteEnvironments([a.id, b.id]);
  }
});

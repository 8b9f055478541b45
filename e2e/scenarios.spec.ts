import { defaultProjectId, e2eDb } from "./db";
import { expect, test } from "./fixtures";
import { proveFromEnvironmentPage } from "./launch-proof";

/**
 * The reviewer's flow for scenario work on a sample environment, through the real worker: launch
 * the validator proof from the environment page, watch its progress, open a proven scenario, and
 * see a launch refused or failed with a reason (no LLM endpoint is configured in this tier).
 */
test("prove a sample environment's validators from its page and read the evidence", async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto("/environments");
  await page.getByLabel("Search environments").fill("library");
  await expect(page.getByTestId("environment-row")).toHaveCount(1);
  await page.getByTestId("environment-row").first().getByRole("link").click();
  await page.waitForURL(/\/environments\/[^/?]+$/);
  const progress = await proveFromEnvironmentPage(page);
  await expect(progress).toContainText("proof: 3 succeeded");

  // Straight to the first scenario's page: a click right after the reload could race the
  // environment page's own refresh when the proof finishes, which aborts the navigation.
  await page.reload();
  const href = await page.getByTestId("scenario-list").getByRole("link").first().getAttribute("href");
  expect(href).toMatch(/^\/scenarios\//);
  await page.goto(href ?? "");
  const panel = page.getByTestId("proof-panel");
  await expect(panel).toContainText("Verified");
  await expect(panel).toContainText("gold from scenario");
  await expect(panel.locator("tbody tr").first()).toContainText("False");
  await expect(page.getByTestId("validators").locator("li")).not.toHaveCount(0);
  await expect(page.getByTestId("scenario-task")).not.toBeEmpty();

  // Every sample arrives proven (the first start proves them); the filter lists exactly the
  // verified scenarios, the three just re-proven among them.
  await page.goto("/scenarios?proof=VERIFIED");
  const verified = await e2eDb().scenario.count({
    where: { proofStatus: "VERIFIED", environment: { projectId: await defaultProjectId() } },
  });
  const rows = page.getByTestId("scenario-table").locator("tbody tr");
  await expect(rows).toHaveCount(verified);
  await expect(rows.filter({ hasText: /library-lending-0[123]/ })).not.toHaveCount(0);
  expect(verified).toBeGreaterThanOrEqual(9);
});

test("a generation the LLM endpoint refuses fails visibly with the reason, and bad input is refused", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/environments");
  await page.getByLabel("Search environments").fill("clinic");
  await expect(page.getByTestId("environment-row")).toHaveCount(1);
  await page.getByTestId("environment-row").first().getByRole("link").click();
  await page.waitForURL(/\/environments\/[^/?]+$/);
  const launcher = page.getByTestId("run-launcher");

  const models = launcher.getByLabel("Models (comma-separated)");
  await models.fill(" ");
  await launcher.getByRole("button", { name: "Run rollouts" }).click();
  await expect(launcher.getByRole("alert")).toContainText("name at least one model");

  await launcher.getByLabel("Count").fill("2");
  await launcher.getByRole("button", { name: "Generate" }).click();
  const progress = launcher.getByTestId("run-progress").first();
  await expect(progress).toContainText("Scenario generation");
  await expect(progress).toHaveAttribute("data-status", "FAILED", { timeout: 100_000 });
  // The browser tier's scripted endpoint only knows the SkelBuilder stages: it answers 400 here.
  await expect(progress).toContainText(/initial_state.*HTTP 400/);
});

import { e2eDb } from "./db";
import { expect, test } from "./fixtures";

test("validator bench: checks against the gold and initial states, edit a check with its result inline", async ({
  page,
}) => {
  const scenario = await e2eDb().scenario.findFirstOrThrow({ where: { externalId: "library-lending-02" } });
  await page.goto(`/scenarios/${scenario.id}`);
  const validators = page.getByTestId("validator");
  const count = await validators.count();
  expect(count).toBeGreaterThan(2);

  await page.getByLabel(/the gold final state/).check();
  await page.getByRole("button", { name: "Run checks" }).click();
  // The first sandbox run of the server: it may wait for a worker while the samples' start-up
  // proofs hold the pool, and boots one.
  await expect(page.getByTestId("bench-summary")).toContainText(
    `${count}/${count} checks passed on the gold state`,
    { timeout: 120_000 },
  );
  await expect(validators.first().getByTestId("check-result")).toHaveText("passed");

  await page.getByLabel(/the initial state/).check();
  await page.getByRole("button", { name: "Run checks" }).click();
  await expect(page.getByTestId("bench-summary")).toContainText("on the initial state");
  await expect(validators.getByTestId("check-result").filter({ hasText: "failed" })).not.toHaveCount(0);

  // An edited (unsaved) check is what runs; its result shows inline.
  const first = validators.first();
  await first.locator(".view-lines").click();
  await page.keyboard.press("Control+a");
  // insertText is one input event: no auto-closed brackets or auto-indent from Monaco.
  await page.keyboard.insertText("def check_func(final_state):\n    return True\n");
  await page.getByLabel(/the initial state/).check();
  await page.getByRole("button", { name: "Run checks" }).click();
  await expect(first.getByTestId("check-result")).toHaveText("passed");
  await expect(first).toContainText("edited (not saved)");
});

test("dashboard shows charts with data or empty states", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Tools per environment")).toBeVisible();
  await expect(page.getByTestId("chart-tools").locator("rect")).not.toHaveCount(0);
  await expect(page.getByTestId("chart-scenarios").locator("rect")).not.toHaveCount(0);
  await expect(page.getByText("Rollout reward distribution")).toBeVisible();
  await expect(page.getByText(/LLM spend, last 30 days/)).toBeVisible();
});

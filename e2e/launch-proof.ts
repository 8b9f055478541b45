import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Clicks "Prove validators" on an environment page and waits for that run to succeed. The run panel
 * may already list earlier runs (the start-up proof, already SUCCEEDED), loaded after the page: the
 * run launched here is the one that appears on top after the click. Near-miss proofs on a busy
 * machine take minutes, hence the timeout.
 */
export async function proveFromEnvironmentPage(page: Page): Promise<Locator> {
  const launcher = page.getByTestId("run-launcher");
  await expect(launcher).toBeVisible();
  const runs = launcher.getByTestId("run-progress");
  await page.waitForLoadState("networkidle"); // the panel's list of earlier runs has loaded
  const listed = await runs.count();
  await launcher.getByRole("button", { name: "Prove validators" }).click();
  await expect(runs).toHaveCount(listed + 1);
  const progress = runs.first();
  await expect(progress).toContainText("Validator proof");
  await expect(progress).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 270_000 });
  return progress;
}

/**
 * The corpus map from the browser: a copy of a sample environment under another name shows up as a
 * near-duplicate cluster with the sample; merging it (keep the sample) rejects the copy through the
 * review log and the cluster leaves the map. The copy is deleted again afterwards.
 */
import { copySample, deleteEnvironments, e2eDb } from "./db";
import { expect, test } from "./fixtures";

test("open the corpus map, see a duplicate cluster and merge it", async ({ page }) => {
  const copy = await copySample("library-lending");
  try {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Corpus map" }).click();
    await expect(page.getByRole("heading", { name: "Corpus map" })).toBeVisible();
    await expect(page.getByTestId("corpus-stats")).toContainText("Duplicate clusters");
    await expect(page.getByTestId("chart-domain").locator("svg.recharts-surface")).toBeVisible();
    await expect(page.getByTestId("chart-tool-count").locator("svg.recharts-surface")).toBeVisible();

    const cluster = page.getByTestId("duplicate-cluster").filter({ hasText: copy.slug });
    await expect(cluster).toBeVisible();
    await expect(cluster.getByRole("link", { name: "library-lending", exact: true })).toBeVisible();
    await cluster.getByLabel("Keep library-lending", { exact: true }).check();
    await cluster.getByRole("button", { name: /^Merge: keep library-lending, reject \d+$/ }).click();
    await expect(page.getByTestId("duplicate-cluster").filter({ hasText: copy.slug })).toHaveCount(0);

    const db = e2eDb();
    const rejected = await db.environment.findUniqueOrThrow({ where: { id: copy.id } });
    expect(rejected.status).toBe("REJECTED");
    const decision = await db.reviewDecision.findFirstOrThrow({
      where: { targetId: rejected.currentVersionId!, decision: "REJECT" },
    });
    expect(decision.reason).toContain("Duplicate of library-lending");
    const kept = await db.environment.findFirstOrThrow({ where: { slug: "library-lending" } });
    expect(kept.status).toBe("ACCEPTED");
  } finally {
    await deleteEnvironments([copy.id]);
  }
});

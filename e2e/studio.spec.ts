import { expect, test } from "./fixtures";

test("dashboard shows the seeded samples", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByTestId("stat-environments")).not.toHaveText("0");
  await expect(page.getByText("Environments by status")).toBeVisible();
});

test("environments list: search and status filter, with the URL kept in sync", async ({ page }) => {
  await page.goto("/environments");
  const rows = page.getByTestId("environment-row");
  await expect(rows.first()).toBeVisible();
  const total = await rows.count();
  expect(total).toBeGreaterThanOrEqual(3);
  await expect(rows.first().getByText("Sample")).toBeVisible();

  await page.getByLabel("Search environments").fill("clinic");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(/clinic/i);
  await expect(page).toHaveURL(/q=clinic/);

  await page.getByLabel("Search environments").fill("");
  await expect(rows).toHaveCount(total);
  await page.getByLabel("Filter by status").selectOption("REJECTED");
  await expect(page.getByText("No environments match")).toBeVisible();
  await page.getByLabel("Filter by status").selectOption("ACCEPTED");
  await expect(rows).toHaveCount(total);
  await expect(page).toHaveURL(/status=ACCEPTED/);
});

test("environment page shows tools and the code in a locally served Monaco", async ({ page, guard }) => {
  const workers: string[] = [];
  page.on("worker", (w) => workers.push(w.url()));
  await page.goto("/environments");
  await page.getByTestId("environment-row").first().getByRole("link").click();
  await expect(page.getByTestId("tool-table")).toBeVisible();
  expect(await page.getByTestId("tool-row").count()).toBeGreaterThanOrEqual(8);
  await expect(page.getByTestId("scenario-list").locator("li")).not.toHaveCount(0);

  const code = page.getByTestId("code-viewer").locator(".view-lines");
  await expect(code).toContainText("class ");
  // Python highlighting: several distinct token classes, so the language really loaded.
  // Tokenizing is asynchronous after the text appears: poll rather than read once.
  await expect
    .poll(
      async () =>
        (
          await page
            .locator(".view-lines span[class^='mtk']")
            .evaluateAll((els: Element[]) => [...new Set(els.map((e) => e.className))])
        ).length,
    )
    .toBeGreaterThanOrEqual(3);
  expect(guard.requests.some((u) => /monaco|editor/i.test(u) || u.includes("/_next/static/"))).toBe(true);
  for (const w of workers) expect(new URL(w).hostname).toBe("127.0.0.1");
});

test("unknown environment shows a not-found page", async ({ page }) => {
  // The status is already sent when the page streams (loading UI), so assert what the user sees.
  await page.goto("/environments/does-not-exist");
  await expect(page.getByText("Not found")).toBeVisible();
  await page.getByRole("link", { name: "Back to environments" }).click();
  await expect(page.getByTestId("environment-row").first()).toBeVisible();
});

test("GET /api/environments returns {items, total} and rejects bad filters", async ({ request }) => {
  const ok = await request.get("/api/environments?q=library&pageSize=5");
  expect(ok.status()).toBe(200);
  const body = (await ok.json()) as { items: { name: string }[]; total: number };
  expect(body.total).toBe(1);
  expect(body.items[0]?.name).toMatch(/librar/i);
  const bad = await request.get("/api/environments?status=DONE");
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/status/);
});

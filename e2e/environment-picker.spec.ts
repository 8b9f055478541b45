/**
 * The dataset forms' environment picker at more environments than one page holds: it searches and
 * pages on the server, keeps what was ticked across searches, and never submits the form on Enter.
 * Creates 60 accepted environments (deleted afterwards).
 */
import { createEnvironment } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

const created: string[] = [];
test.afterAll(async () => {
  await deleteEnvironments(created);
});

test("pick one environment out of many by searching, and preview a dataset of just that one", async ({
  page,
  request,
}) => {
  const tag = unique("pick");
  const projectId = await defaultProjectId();
  for (let i = 0; i < 60; i++) {
    const env = await createEnvironment(e2eDb(), projectId, {
      slug: `${tag}-${String(i).padStart(3, "0")}`,
      name: `Picker shop ${i}`,
      status: "ACCEPTED",
    });
    created.push(env.id);
  }
  const target = `${tag}-042`;

  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "New dataset" });
  const pager = form.getByRole("navigation", { name: "Environment pages" });
  await expect(pager).toContainText(/Page 1 of \d+/);
  const firstRow = form
    .getByRole("group", { name: /^Environments/ })
    .locator("label")
    .first();
  const firstOnPage1 = (await firstRow.textContent()) ?? "";
  await pager.getByRole("button", { name: "Next" }).click();
  await expect(pager).toContainText(/Page 2 of \d+/);
  await expect(firstRow).not.toHaveText(firstOnPage1);
  const search = form.getByLabel("Search environments to pick");
  await search.fill(target);
  const boxes = form.getByRole("checkbox");
  await expect(boxes).toHaveCount(1);
  await boxes.first().check();
  await expect(form.getByTestId("picked-environments")).toContainText("1 ticked:");
  // Enter searches; it does not create a dataset.
  await search.press("Enter");
  await expect(page).toHaveURL(/\/datasets$/);

  await search.fill("no-such-environment-anywhere");
  await expect(form.getByText("No environment matches “no-such-environment-anywhere”.")).toBeVisible();
  await search.fill("");
  await expect(boxes.first()).toBeVisible();
  await expect(form.getByRole("button", { name: `Untick ${target}` })).toBeVisible();

  await form.getByLabel("Name", { exact: true }).fill(unique("picked"));
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByTestId("preview-warning").first()).toContainText(`${target} has no scenarios.`);
  await expect(form.getByTestId("preview-warning")).toHaveCount(1);

  // Unticking from the list of ticked ones empties the choice again ("all accepted").
  await form.getByRole("button", { name: `Untick ${target}` }).click();
  await expect(form.getByTestId("picked-environments")).toHaveCount(0);

  const ok = await request.get(`/api/datasets/eligible-environments?q=${tag}&page=2`);
  expect(ok.status()).toBe(200);
  const body = (await ok.json()) as { items: { slug: string }[]; total: number; page: number };
  expect(body.total).toBe(60);
  expect(body.items.map((e) => e.slug)[0]).toBe(`${tag}-050`);
  for (const bad of ["page=0", "page=two", `q=${"x".repeat(201)}`]) {
    const refused = await request.get(`/api/datasets/eligible-environments?${bad}`);
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
  }
});

/**
 * The review queue at the size of a real corpus: 500 environments waiting in one domain. Search,
 * filter, sort and choose columns; tick a range with shift-click; select every item matching the
 * filter (more than the page loads), untick one, accept them with the mouse, then reject a range
 * with one reason — and read the database afterwards: each item decided once, the ones needing an
 * override reason skipped and still waiting.
 */
import { createQualityCheck } from "../prisma/seed/factories";
import { E2E_ADMIN } from "../playwright.config";
import { defaultProjectId, deleteDatasets, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

const TOTAL = 500;
const RISKY = 20; // items 000–019 have a failing quality check: accepting them needs an override reason
const created: string[] = [];
const datasets: string[] = [];
test.afterAll(async () => {
  await deleteDatasets(datasets);
  await deleteEnvironments(created);
});
test.use({ viewport: { width: 1440, height: 900 } });

const pad = (i: number) => String(i).padStart(3, "0");

async function seedQueue(tag: string, domain: string) {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const envs = Array.from({ length: TOTAL }, (_, i) => ({
    id: `${tag}-e${pad(i)}`,
    projectId,
    slug: `${tag}-${pad(i)}`,
    name: `${tag} ${pad(i)}`,
    domain,
    origin: "MANUAL" as const,
    status: "IN_REVIEW" as const,
  }));
  await db.environment.createMany({ data: envs });
  created.push(...envs.map((e) => e.id));
  await db.environmentVersion.createMany({
    data: envs.map((e) => ({
      id: `${e.id}-v1`,
      environmentId: e.id,
      version: 1,
      className: "Counter",
      source: "class Counter:\n    pass\n",
      sourceHash: `hash-${e.id}`,
      tools: [],
      producedBy: "test",
    })),
  });
  await db.$executeRaw`UPDATE "Environment" SET "currentVersionId" = "id" || '-v1' WHERE "domain" = ${domain}`;
  for (let i = 0; i < RISKY; i++) await createQualityCheck(db, `${tag}-e${pad(i)}-v1`, ["FAIL", "FAIL"]);
}

test("a 500-item queue: search, filter, sort, columns, select all matching and bulk-decide with the mouse", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const tag = unique("qscale");
  const domain = unique("scale-domain");
  await seedQueue(tag, domain);
  const db = e2eDb();
  const datasetName = unique("queue-scale-set");
  datasets.push(datasetName);
  const dataset = await db.dataset.create({
    data: { projectId: await defaultProjectId(), name: datasetName },
  });
  const items = page.getByTestId("queue-item");
  const titles = page.getByTestId("queue-list").locator("tbody tr td:nth-child(2) > a");

  // Filter with the mouse: the domain, then the kind.
  await page.goto("/review");
  await page.getByLabel("Filter by domain").selectOption(domain);
  await expect(page).toHaveURL(new RegExp(`domain=${domain}`));
  await page.getByRole("tab", { name: /Environments/ }).click();
  await expect(page).toHaveURL(/kind=environment/);
  await expect(page.getByTestId("count-environment")).toHaveText(String(TOTAL));
  // The page loads the oldest 200; the bar offers all 500.
  await expect(items).toHaveCount(200);
  const bulkBar = page.getByTestId("bulk-bar");
  await expect(
    bulkBar.getByRole("button", { name: `Select all ${TOTAL} matching the filter` }),
  ).toBeVisible();

  // Search within the filter.
  const search = page.getByRole("searchbox", { name: "Search the queue" });
  await search.fill(`${tag} 04`);
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(items).toHaveCount(10);
  await expect(bulkBar.getByRole("button", { name: "Select all 10 matching the filter" })).toBeVisible();
  await page.goto(`/review?kind=environment&domain=${domain}`);
  await expect(items).toHaveCount(200);

  // Sort by the item's name, both ways: on the server, so the 200 loaded are the first of all 500.
  const header = page.getByRole("columnheader", { name: /Item/ });
  await header.getByRole("button").click();
  await expect(page).toHaveURL(/sort=title/);
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect(titles.first()).toHaveText(`${tag} 000`);
  await expect(titles.nth(199)).toHaveText(`${tag} 199`);
  const asc = await titles.allTextContents();
  expect(asc).toEqual(Array.from({ length: 200 }, (_, i) => `${tag} ${pad(i)}`));
  await header.getByRole("button").click();
  await expect(page).toHaveURL(/dir=desc/);
  await expect(header).toHaveAttribute("aria-sort", "descending");
  await expect(titles.first()).toHaveText(`${tag} 499`);
  const desc = await titles.allTextContents();
  expect(desc).toEqual(Array.from({ length: 200 }, (_, i) => `${tag} ${pad(TOTAL - 1 - i)}`));

  // Choose columns: hide Detail and Run; the choice survives a reload.
  await page.getByTestId("queue-columns").getByText("Columns", { exact: true }).click();
  await page.getByTestId("queue-columns").getByLabel("Detail").uncheck();
  await page.getByTestId("queue-columns").getByLabel("Run").uncheck();
  await expect(page.getByTestId("cell-detail")).toHaveCount(0);
  await expect(page.getByTestId("cell-domain")).toHaveCount(200);
  await page.reload();
  await expect(items).toHaveCount(200);
  await expect(page.getByTestId("cell-detail")).toHaveCount(0);
  await expect(page.getByTestId("cell-run")).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Kind" })).toBeVisible();

  // A range with shift-click.
  const boxes = page.getByTestId("queue-select");
  await boxes.nth(2).click();
  await boxes.nth(6).click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("bulk-size")).toHaveText("5 selected");
  await bulkBar.getByRole("button", { name: "Clear selection" }).click();
  await expect(page.getByTestId("bulk-size")).toHaveText("0 selected");

  // Every item matching the filter, beyond the loaded 200, minus one unticked row (the sort, kept
  // in the URL across the reload, puts the last name first: not one needing an override).
  await expect(header).toHaveAttribute("aria-sort", "descending");
  await bulkBar.getByRole("button", { name: `Select all ${TOTAL} matching the filter` }).click();
  await expect(page.getByTestId("bulk-size")).toHaveText(
    `All ${TOTAL} items matching the filter selected (200 loaded)`,
  );
  const kept = `${tag} 499`;
  await expect(titles.first()).toHaveText(kept);
  await boxes.first().uncheck();
  await expect(page.getByTestId("bulk-size")).toHaveText(
    `All ${TOTAL - 1} items matching the filter selected (200 loaded)`,
  );
  await bulkBar.getByRole("button", { name: "Accept selected" }).click();
  const result = page.getByTestId("bulk-result");
  await expect(result).toContainText(`${TOTAL - 1 - RISKY} of ${TOTAL - 1} accepted`, { timeout: 120_000 });
  await expect(page.getByTestId("bulk-skipped")).toHaveText(String(RISKY));
  await expect(page.getByTestId("bulk-skipped-list")).toContainText("needs a written override reason");
  // The page reloads the queue: what is left waiting.
  await expect(page.getByTestId("count-environment")).toHaveText(String(RISKY + 1));
  await expect(items).toHaveCount(RISKY + 1);

  const admin = await db.user.findUniqueOrThrow({ where: { email: E2E_ADMIN.email } });
  const statuses = await db.environment.groupBy({
    by: ["status"],
    where: { domain },
    _count: true,
  });
  expect(Object.fromEntries(statuses.map((s) => [s.status, s._count]))).toEqual({
    ACCEPTED: TOTAL - 1 - RISKY,
    IN_REVIEW: RISKY + 1,
  });
  const keptEnv = await db.environment.findFirstOrThrow({ where: { domain, name: kept } });
  expect(keptEnv.status).toBe("IN_REVIEW");
  const versionIds = created.map((id) => `${id}-v1`);
  const accepts = await db.reviewDecision.findMany({
    where: { targetId: { in: versionIds }, decision: "ACCEPT" },
    select: { targetId: true, actorId: true },
  });
  expect(accepts).toHaveLength(TOTAL - 1 - RISKY);
  expect(new Set(accepts.map((a) => a.targetId)).size).toBe(TOTAL - 1 - RISKY);
  expect(new Set(accepts.map((a) => a.actorId))).toEqual(new Set([admin.id]));
  const risky = await db.environment.findMany({
    where: { id: { in: created.slice(0, RISKY) } },
    select: { status: true },
  });
  expect(risky.every((r) => r.status === "IN_REVIEW")).toBe(true);

  // Reject a ticked range with one reason.
  await expect(boxes).toHaveCount(RISKY + 1);
  await boxes.nth(0).click();
  await boxes.nth(4).click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("bulk-size")).toHaveText("5 selected");
  const picked = (await titles.allTextContents()).slice(0, 5);
  await bulkBar.getByRole("button", { name: "Reject selected…" }).click();
  await bulkBar.getByLabel("Reason for every selected item").fill("seeded duplicates");
  await bulkBar.getByRole("button", { name: "Reject 5" }).click();
  await expect(result).toContainText("5 of 5 rejected");
  await expect(items).toHaveCount(RISKY + 1 - 5);
  const rejected = await db.environment.findMany({
    where: { domain, status: "REJECTED" },
    select: { name: true },
  });
  expect(rejected.map((r) => r.name).sort()).toEqual([...picked].sort());
  const rejects = await db.reviewDecision.findMany({
    where: { targetId: { in: versionIds }, decision: "REJECT" },
    select: { reason: true },
  });
  expect(rejects.map((r) => r.reason)).toEqual(Array<string>(5).fill("seeded duplicates"));

  // Prove and add to a dataset take scenarios: environments come back skipped with why, and no
  // proof run or dataset version is made.
  await boxes.nth(0).click();
  await boxes.nth(1).click({ modifiers: ["Shift"] });
  await bulkBar.getByRole("button", { name: "Prove selected" }).click();
  await expect(result).toContainText("0 of 2 sent to proof");
  await expect(page.getByTestId("bulk-skipped-list")).toContainText("only scenarios can be used here");
  await expect(page.getByTestId("bulk-size")).toHaveText("0 selected");
  await boxes.nth(0).click();
  await boxes.nth(1).click({ modifiers: ["Shift"] });
  await bulkBar.getByRole("button", { name: "Add to dataset…" }).click();
  await bulkBar.getByLabel("Dataset", { exact: true }).selectOption({ label: datasetName });
  await bulkBar.getByRole("button", { name: "Add 2 to the dataset" }).click();
  await expect(result).toContainText("0 of 2 added");
  await expect(page.getByTestId("bulk-skipped-list")).toContainText("only scenarios can be used here");
  expect(await db.datasetVersion.count({ where: { datasetId: dataset.id } })).toBe(0);
  await expect(items).toHaveCount(RISKY + 1 - 5);
});

/**
 * Review integrity: what was reviewed and proven is exactly what gets exported.
 * One environment per test (a copy of a sample, or factory rows), cleaned up afterwards.
 */
import { readFileSync } from "node:fs";
import { createEnvironment, createScenario, createUser, proveScenario } from "../prisma/seed/factories";
import { copySample, defaultProjectId, deleteDatasets, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { logIn } from "./login";
import { typeAtEnd } from "./monaco";
import { untar } from "./untar";

const environments: string[] = [];
const datasets: string[] = [];
test.afterAll(async () => {
  await deleteDatasets(datasets);
  await deleteEnvironments(environments);
});

// These tests edit accepted items on purpose: the editors' "it goes back to review" confirmation is
// answered yes (e2e/editor-shortcuts.spec.ts covers the question itself).
test.beforeEach(({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
});

test("a dataset pins the accepted, proven environment version, and the export holds that code", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const env = await copySample("library-lending");
  environments.push(env.id);
  // v1 is proven (proof rows as the worker writes them; e2e/scenarios.spec.ts proves from the
  // page). v2's proof below is the studio's own, run by its worker and sandbox.
  const db = e2eDb();
  for (const { id } of await db.scenario.findMany({ where: { environmentId: env.id } }))
    await proveScenario(db, id);

  // Edit to v2: the studio re-proves it, but nobody has accepted v2 yet.
  await page.goto(`/environments/${env.id}/edit`);
  await expect(page.getByTestId("code-editor").locator(".view-lines")).toContainText("class");
  await typeAtEnd(page, "# pinned-by-e2e");
  await page.getByLabel("Version message").fill("note for the pin test");
  await page.getByRole("button", { name: "Save new version" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 2");

  const first = unique("pins-a");
  datasets.push(first);
  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "New dataset" });
  await form.getByLabel("Name", { exact: true }).fill(first);
  await form.getByLabel(new RegExp(env.slug)).check();
  await form.getByRole("button", { name: "Preview" }).click();
  const rows = form.getByTestId("preview-included-row");
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) await expect(row).toContainText(`${env.slug} v1`);
  await expect(rows.first()).toContainText("environment changed since accepted: pinned to v1");
  await expect(form.getByTestId("preview-warning").first()).toContainText("The test split is empty");

  // Accept v2 once its automatic re-proof has verified it; new datasets then pin v2.
  const v2 = await db.environmentVersion.findFirstOrThrow({ where: { environmentId: env.id, version: 2 } });
  await expect
    .poll(() => db.validatorProof.count({ where: { environmentVersionId: v2.id, status: "VERIFIED" } }), {
      timeout: 150_000,
    })
    .toBe(3);
  await page.goto(`/environments/${env.id}/quality`);
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("status")).toHaveText("Accepted.");

  const second = unique("pins-b");
  datasets.push(second);
  await page.goto("/datasets");
  await form.getByLabel("Name", { exact: true }).fill(second);
  await form.getByLabel(new RegExp(env.slug)).check();
  await form.getByRole("button", { name: "Preview" }).click();
  for (const row of await rows.all()) await expect(row).toContainText(`${env.slug} v2`);
  await form.getByRole("button", { name: "Create dataset" }).click();
  await expect(page.getByRole("heading", { name: second })).toBeVisible();
  await expect(page.getByTestId("pinned-environment")).toHaveText(["v2", "v2", "v2"]);
  await expect(page.getByTestId("pinned-checks").first()).toHaveText(/^v1( · v1)*$/);

  await page.getByLabel("Export version").selectOption({ label: "v1" });
  await page.getByLabel("Export format").selectOption("ENVSCALER_JSON");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const exportRow = page.getByTestId("export-row").first();
  await expect(exportRow.getByTestId("export-status")).toHaveText(/Succeeded/, { timeout: 60_000 });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    exportRow.getByRole("link", { name: "Download" }).click(),
  ]);
  const files = untar(readFileSync(await download.path()));
  const envs = JSON.parse(files.get(`${second}-v1-envscaler-json/env_metadata.json`) ?? "null") as Record<
    string,
    { env_class_code: string; envstudio: { version: number } }
  >;
  expect(envs[env.slug]?.envstudio.version).toBe(2);
  expect(envs[env.slug]?.env_class_code).toContain("# pinned-by-e2e");
});

test("the preview says what is left out and why; an override needs a written reason and is marked", async ({
  page,
}) => {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const env = await createEnvironment(db, projectId, { status: "ACCEPTED", name: unique("preview-env") });
  const empty = await createEnvironment(db, projectId, { status: "ACCEPTED", name: unique("empty-env") });
  environments.push(env.id, empty.id);
  const proven = await createScenario(db, env.id, { status: "ACCEPTED" });
  const waiting = await createScenario(db, env.id, { status: "DRAFT" });
  const failed = await createScenario(db, env.id, { status: "ACCEPTED" });
  const unproven = await createScenario(db, env.id, { status: "ACCEPTED" });
  const prove = async (scenarioId: string, status: "VERIFIED" | "FAILED") => {
    const checks = (await db.validator.findMany({ where: { scenarioId }, orderBy: { position: "asc" } })).map(
      (v) => v.currentVersionId!,
    );
    await db.validatorProof.create({
      data: {
        scenarioId,
        environmentVersionId: env.currentVersionId!,
        validatorVersionIds: checks,
        status,
        noop: {},
        gold: {},
        sensitivity: {},
      },
    });
  };
  await prove(proven.id, "VERIFIED");
  await prove(failed.id, "FAILED");

  const name = unique("preview");
  datasets.push(name);
  await page.goto("/datasets");
  const form = page.getByRole("form", { name: "New dataset" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel(new RegExp(env.slug)).check();
  await form.getByLabel(new RegExp(empty.slug)).check();
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByTestId("preview-summary")).toHaveText("Includes 1 of 4 scenarios");
  await expect(form.getByTestId("preview-included-row")).toContainText([proven.externalId]);
  const excluded = form.getByTestId("preview-excluded-row");
  await expect(excluded.filter({ hasText: waiting.externalId })).toContainText(
    "not accepted (waiting for review)",
  );
  await expect(excluded.filter({ hasText: failed.externalId })).toContainText(
    "proof failed for environment v1",
  );
  await expect(excluded.filter({ hasText: unproven.externalId })).toContainText(
    "proof missing for environment v1",
  );
  await expect(form.getByTestId("preview-warning")).toContainText([`${empty.slug} has no scenarios.`]);

  await form.getByLabel(/Override reason/).fill("trainer smoke test, proofs pending");
  await form.getByRole("button", { name: "Include them by override" }).click();
  await expect(form.getByTestId("preview-summary")).toHaveText("Includes 3 of 4 scenarios");
  await form.getByRole("button", { name: "Create dataset" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByText("override: trainer smoke test, proofs pending")).toBeVisible();
  await expect(page.getByTestId("version-item").filter({ hasText: "entered by override" })).toHaveCount(2);
  const version = await db.datasetVersion.findFirstOrThrow({ where: { dataset: { name } } });
  expect(
    await db.reviewDecision.findFirst({ where: { targetType: "DATASET_VERSION", targetId: version.id } }),
  ).toMatchObject({ decision: "OVERRIDE", reason: "trainer smoke test, proofs pending" });

  // No rollouts yet: a trajectory format cannot start, and the picker says why before any click
  // (the server's own refusal is covered by the export tests).
  await page.getByLabel("Export format").selectOption("OPENAI_JSONL");
  await expect(page.getByTestId("readiness-note")).toContainText("Needs agent trajectories");
  await expect(page.getByRole("button", { name: "Export", exact: true })).toBeDisabled();
  expect(await db.export.count({ where: { datasetVersionId: version.id } })).toBe(0);
});

test("an edit after acceptance is back in the queue with its diff; a risky accept needs a reason; undo is a decision", async ({
  page,
}) => {
  const db = e2eDb();
  const domain = unique("accepted");
  const env = await createEnvironment(db, await defaultProjectId(), {
    status: "ACCEPTED",
    domain,
    name: `${domain} env`,
  });
  environments.push(env.id);
  const scenario = await createScenario(db, env.id, { status: "IN_REVIEW" });
  const task =
    "Renew the loan of the book The Left Hand of Darkness for member M-1002, then reserve a second copy of the same title for member M-1007, and finally report both due dates back to the member in one message.";
  await db.scenario.update({
    where: { id: scenario.id },
    data: {
      task,
      proofReasons: [
        { code: "FAILS_ON_GOLD", position: 0, message: "check 1 fails after the gold solution (scenario)" },
      ],
    },
  });
  // Proven (and failed) on version 1: the edit below makes that proof stale and re-proves version 2.
  await proveScenario(db, scenario.id, "FAILED");

  await page.goto(`/environments/${env.id}`);
  await expect(page.getByTestId("acceptance")).toHaveText("Accepted · version 1");
  await page.goto(`/environments/${env.id}/edit`);
  await expect(page.getByTestId("code-editor").locator(".view-lines")).toContainText("class Counter");
  await typeAtEnd(page, "# edited after acceptance");
  await page.getByLabel("Version message").fill("late fix");
  await page.getByRole("button", { name: "Save new version" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 2");
  // The edit made the proof of version 1 stale and re-queued it: wait for the proof of version 2
  // (the fixture has no gold solution, so it fails for that reason) before reading the queue.
  const v2Id = (await db.environment.findUniqueOrThrow({ where: { id: env.id } })).currentVersionId;
  await expect
    .poll(
      async () =>
        db.validatorProof.count({ where: { scenarioId: scenario.id, environmentVersionId: v2Id! } }),
      {
        timeout: 60_000,
      },
    )
    .toBe(1);
  await page.goto(`/environments/${env.id}`);
  await expect(page.getByTestId("acceptance")).toContainText(
    "Changed since accepted: version 1 was accepted, the code is now version 2",
  );

  await page.goto(`/review?domain=${domain}`);
  const items = page.getByTestId("queue-item");
  await expect(items).toHaveCount(2);
  await expect(items.first().getByTestId("changed-since-accepted")).toContainText(
    "v1 was accepted, the code is now v2",
  );
  await expect(items.first().getByRole("link", { name: "diff" })).toHaveAttribute(
    "href",
    `/environments/${env.id}/versions?a=1&b=2`,
  );
  await expect(items.nth(1).getByTestId("item-risks")).toContainText("its validator proof failed");
  await expect(page.getByTestId("claim-state")).toHaveText("yours while this page is open");
  // Reasons read as sentences, titles end at a word, and the preview pane shows the diff to read.
  await expect(items.nth(1)).toContainText(
    "No gold solution: none stored, no rollout reached reward 1, and none could be obtained from the model.",
  );
  await expect(items.nth(1)).not.toContainText('{"code"');
  await expect(items.nth(1).getByRole("link").first()).toHaveText(
    "Renew the loan of the book The Left Hand of Darkness for member M-1002, then reserve a second copy of the same title for member M-1007, and finally report…",
  );
  const preview = page.getByTestId("queue-preview");
  await expect(preview.getByTestId("preview-diff-label")).toHaveText("Code diff v1 (accepted) → v2");
  await expect(preview.getByTestId("preview-diff").locator(".modified .view-lines")).toContainText(
    "edited after acceptance",
  );
  await expect(preview.getByTestId("preview-quality")).toHaveText(
    "Quality: No quality check on this version.",
  );
  await expect(page.getByTestId("queue-progress")).toContainText("2 waiting");

  // Accept, undo (u), accept again: the log has all three.
  await page.keyboard.press("a");
  await expect(page.getByTestId("queue-message")).toContainText(`Accepted: ${domain} env`);
  await expect(page.getByTestId("count-environment")).toHaveText("0");
  await expect(page.getByTestId("queue-progress")).toContainText("1 waiting");
  await expect(preview.getByTestId("preview-proof")).toContainText(
    "No gold solution: none stored, no rollout reached reward 1, and none could be obtained from the model.",
  );
  await page.keyboard.press("u");
  await expect(page.getByTestId("queue-message")).toContainText(
    `Undone: ${domain} env is back in the queue.`,
  );
  await expect(page.getByTestId("count-environment")).toHaveText("1");
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId("claim-state")).toHaveText("yours while this page is open");
  await page.keyboard.press("a");
  await expect(page.getByTestId("queue-message")).toContainText(`Accepted: ${domain} env`);

  // The failed proof: `a` asks for an override reason instead of accepting.
  await expect(items).toHaveCount(1);
  await page.keyboard.press("a");
  await expect(page.getByTestId("accept-risks")).toContainText("its validator proof failed");
  await expect(items).toHaveCount(1);
  await page.getByLabel("Override reason").fill("check 1 is fixed in the next proof run");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("queue-message")).toContainText("Accepted:");
  await expect(items).toHaveCount(0);

  const log = await db.reviewDecision.findMany({
    where: { OR: [{ targetId: env.currentVersionId! }, { targetId: scenario.id }] },
    orderBy: { createdAt: "asc" },
  });
  const v2 = await db.environmentVersion.findFirstOrThrow({ where: { environmentId: env.id, version: 2 } });
  const onV2 = await db.reviewDecision.findMany({
    where: { targetId: v2.id, decision: { in: ["ACCEPT", "UNDO"] } },
    orderBy: { createdAt: "asc" },
  });
  expect(onV2.map((d) => d.decision)).toEqual(["ACCEPT", "UNDO", "ACCEPT"]);
  expect(onV2[0]?.after).toMatchObject({ version: 2 });
  expect(log.find((d) => d.targetId === scenario.id && d.decision === "ACCEPT")).toMatchObject({
    reason: "check 1 is fixed in the next proof run",
  });
  await page.goto(`/environments/${env.id}`);
  await expect(page.getByTestId("acceptance")).toHaveText("Accepted · version 2");
});

test("a check's checklist text is edited with its code, and a concurrent check edit merges three ways", async ({
  page,
  context,
}) => {
  const db = e2eDb();
  const env = await createEnvironment(db, await defaultProjectId(), { name: unique("check-env") });
  environments.push(env.id);
  const code = (x: number, n: number) =>
    `def check_func(final_state):\n    x = ${x}\n    y = 0\n    return final_state.get('count') == ${n}`;
  // Monaco indents each new line like the one before (and after a colon): type the body flush left.
  const typed = (x: number, n: number) =>
    `def check_func(final_state):\nx = ${x}\ny = 0\nreturn final_state.get('count') == ${n}`;
  const scenario = await createScenario(db, env.id, { checks: [code(1, 1)] });
  await page.goto(`/scenarios/${scenario.id}`);
  const other = await context.newPage();
  await other.goto(`/scenarios/${scenario.id}`);

  const card = page.getByTestId("validator").first();
  await card.getByLabel("Checklist text of check 1").fill("The count is exactly one");
  await card.locator(".view-lines").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.insertText(typed(2, 1));
  await card.getByLabel("Message for check 1").fill("clearer wording, x = 2");
  await card.getByRole("button", { name: "Save check" }).click();
  await expect(card.getByRole("status")).toContainText("Saved as version 2");

  const theirs = other.getByTestId("validator").first();
  await theirs.locator(".view-lines").click();
  await other.keyboard.press("Control+a");
  await other.keyboard.insertText(typed(1, 2));
  await theirs.getByLabel("Message for check 1").fill("count two");
  await theirs.getByRole("button", { name: "Save check" }).click();
  await expect(theirs.getByTestId("merge-summary")).toContainText("nothing overlaps");
  await theirs.getByRole("button", { name: "Use the merged text" }).click();
  await theirs.getByRole("button", { name: "Save check" }).click();
  await expect(theirs.getByRole("status")).toContainText("Saved as version 3");
  await other.close();

  const validator = await db.validator.findFirstOrThrow({
    where: { scenarioId: scenario.id },
    include: { currentVersion: true },
  });
  expect(validator.checkItem).toBe("The count is exactly one");
  expect(validator.currentVersion?.code).toBe(code(2, 2));
  const v1 = await db.validatorVersion.findFirstOrThrow({ where: { validatorId: validator.id, version: 1 } });
  expect(validator.currentVersion?.mergedParentVersionId).toBe(v1.id);
  expect((await db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).checklist).toEqual([
    "The count is exactly one",
  ]);
  await page.reload();
  await expect(page.getByTestId("validator").first().getByLabel("Checklist text of check 1")).toHaveValue(
    "The count is exactly one",
  );
});

test("a queue page left for another page releases its claim at once, so another reviewer gets the item", async ({
  page,
  browser,
}) => {
  const db = e2eDb();
  const domain = unique("claims");
  const env = await createEnvironment(db, await defaultProjectId(), {
    status: "IN_REVIEW",
    domain,
    name: `${domain} env`,
  });
  environments.push(env.id);
  await page.goto(`/review?domain=${domain}`);
  await expect(page.getByTestId("claim-state")).toHaveText("yours while this page is open");

  const bob = await createUser(db, { role: "REVIEWER" });
  const other = await browser.newContext();
  const bobPage = await other.newPage();
  await logIn(bobPage, bob.email, bob.password);
  await bobPage.goto(`/review?domain=${domain}`);
  await expect(bobPage.getByTestId("queue-progress")).toContainText("1 being reviewed by others");
  await expect(bobPage.getByText("Nothing waiting for review")).toBeVisible();

  // The guard's route holds every request until this process answers it; a leaving page's beacon
  // can lose that race, which no real browser has. Requests are still recorded and checked for
  // leaving localhost. The page navigates rather than closes: Chromium gives a closing tab's
  // handlers only a moment, and on a loaded machine it often closes the tab before the handler
  // runs (the claim then lapses after its 2 minutes, which is not what this test is about).
  await page.context().unrouteAll({ behavior: "wait" });
  await page.goto("/environments");
  await expect(async () => {
    await bobPage.reload();
    await expect(bobPage.getByTestId("queue-item")).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(bobPage.getByTestId("claim-state")).toHaveText("yours while this page is open");
  await other.close();
});

test("viewers see no control they cannot use; an admin resets a user's password", async ({
  page,
  browser,
}) => {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const viewer = await createUser(db, { role: "VIEWER" });
  await page.goto("/users");
  const row = page.getByTestId("user-row").filter({ hasText: viewer.email });
  await row.getByRole("button", { name: "Reset password" }).click();
  await row.getByLabel(`New password for ${viewer.email}`).fill("a brand new password");
  await row.getByRole("button", { name: "Set password" }).click();
  await expect(row.getByRole("status")).toHaveText(`Password reset for ${viewer.email}.`);

  const env = await createEnvironment(db, projectId, { status: "ACCEPTED", name: unique("viewer-env") });
  environments.push(env.id);
  const scenario = await createScenario(db, env.id, { status: "ACCEPTED" });
  const name = unique("viewer-ds");
  datasets.push(name);
  const dataset = await db.dataset.create({
    data: { projectId, name, versions: { create: { version: 1, seed: 1 } } },
  });

  const context = await browser.newContext();
  const v = await context.newPage();
  await logIn(v, viewer.email, "a brand new password");
  await v.goto(`/environments/${env.id}`);
  await expect(v.getByRole("heading", { name: env.name })).toBeVisible();
  for (const button of ["Prove validators", "Generate", "Run rollouts"])
    await expect(v.getByRole("button", { name: button })).toHaveCount(0);
  for (const link of ["Edit code", "Tool playground"])
    await expect(v.getByRole("link", { name: link })).toHaveCount(0);
  await v.goto("/runs");
  await expect(v.getByRole("heading", { name: "Runs", exact: true })).toBeVisible();
  await expect(v.getByText("New SkelBuilder run")).toHaveCount(0);
  await v.goto("/datasets");
  await expect(v.getByRole("heading", { name: "Datasets", exact: true, level: 1 })).toBeVisible();
  await expect(v.getByRole("form", { name: "New dataset" })).toHaveCount(0);
  await expect(v.getByRole("link", { name: "Import environments and scenarios" })).toHaveCount(0);
  await v.goto(`/datasets/${dataset.id}`);
  await expect(v.getByRole("heading", { name })).toBeVisible();
  await expect(v.getByRole("button", { name: "Export", exact: true })).toHaveCount(0);
  await expect(v.getByRole("form", { name: "New version" })).toHaveCount(0);
  await v.goto("/datasets/import");
  await expect(v.getByText("Importing needs the reviewer role.")).toBeVisible();
  await expect(v.getByRole("button", { name: "Import", exact: true })).toHaveCount(0);
  await v.goto(`/scenarios/${scenario.id}`);
  await expect(v.getByTestId("validator")).toHaveCount(1);
  await expect(v.getByRole("button", { name: "Run checks" })).toHaveCount(0);
  await v.goto("/review");
  await expect(v.getByRole("heading", { name: "Review queue" })).toBeVisible();
  await expect(v.getByText(/^Keys:/)).toHaveCount(0);
  await context.close();
});

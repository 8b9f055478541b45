/**
 * A newcomer without a model: the offline demo (`npm start -- --demo`) walks the whole pipeline on
 * canned replies, labelled as such, from an idea to proven scenarios; a studio without an endpoint
 * refuses to start a run and says how to fix it; a failed or unwanted environment is archived
 * (hidden from the list, shown on request, audited) and restored.
 */
import { defaultProjectId, e2eDatabaseUrl, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { spawnStudio } from "./spawn-studio";

test("offline demo: one command, an idea, a run, generated scenarios, proven — every reply labelled canned", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const database = unique("demo").replaceAll("-", "_");
  await e2eDb().$executeRawUnsafe(`create database "${database}"`);
  const url = new URL(e2eDatabaseUrl());
  url.pathname = `/${database}`;
  const studio = await spawnStudio({
    how: "npm-start",
    args: ["--demo"],
    env: { DATABASE_URL: url.toString(), ENVSTUDIO_SEED_SAMPLES: "0", OPENAI_BASE_URL: "" },
  });
  try {
    expect(studio.output()).toContain("offline demo: canned replies");
    await page.goto(`${studio.base}/runs`);
    await expect(page.getByRole("status").getByTestId("demo-badge")).toHaveText(
      "demo model — canned replies",
    );
    await expect(page.getByRole("textbox", { name: "Main model" })).toHaveValue("demo-canned-replies");
    await page
      .getByRole("textbox", { name: /Environment ideas/ })
      .fill("A public library lending desk with holds and fines");
    await page.getByRole("spinbutton", { name: "Quality rounds" }).fill("3");
    await page.getByRole("button", { name: "Start run" }).click();

    await expect(page).toHaveURL(/\/runs\/[^/]+$/);
    await expect(page.getByRole("main").getByTestId("demo-badge")).toBeVisible();
    await expect(page.getByTestId("run-status")).toHaveText(/Succeeded/, { timeout: 150_000 });
    // The run points to the next step for its environment: review and accept, then scenarios.
    await expect(page.getByTestId("run-next-step")).toContainText("Next step: review and accept");
    // A human name (the idea without its article), not "1 idea" or a slug.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Public library lending desk with holds and fines",
    );
    await expect(page.getByTestId("run-environments").getByRole("link").first()).toHaveText(
      "Public library lending desk with holds and fines",
    );
    const runUrl = page.url();
    // The runs list labels the run too.
    await page.goto(`${studio.base}/runs`);
    await expect(page.getByTestId("run-row").first().getByTestId("demo-badge")).toBeVisible();
    await page.goto(runUrl);
    await page.getByRole("link", { name: "Review and accept" }).click();
    await page.getByRole("textbox", { name: "Reason" }).fill("the demo environment reads right");
    await page.getByRole("button", { name: "Accept", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Accepted." })).toBeVisible();
    await page.goto(runUrl);
    await page.getByRole("link", { name: "Generate scenarios" }).click();
    await expect(page).toHaveURL(/\/environments\/[^/]+#scenario-launcher$/);
    // The domain the pipeline inferred is stored and shown, not "general".
    await expect(page.getByTestId("environment-facts")).toContainText("library services");

    const launcher = page.getByTestId("run-launcher");
    await launcher.getByLabel("Count").fill("3");
    await launcher.getByRole("button", { name: "Generate" }).click();
    const progress = launcher.getByTestId("run-progress").first();
    await expect(progress).toContainText("Scenario generation");
    await expect(progress).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 100_000 });

    // Generation enqueues the validator proof: the scenarios arrive proven.
    await page.goto(`${studio.base}/scenarios?proof=VERIFIED`);
    const rows = page.getByTestId("scenario-table").locator("tbody tr");
    await expect(async () => {
      await page.reload();
      await expect(rows).toHaveCount(3, { timeout: 2_000 });
    }).toPass({ timeout: 100_000 });
  } finally {
    await page.goto("about:blank");
    await studio.stop();
    await e2eDb().$executeRawUnsafe(`drop database if exists "${database}" with (force)`);
  }
});

test("without an LLM endpoint Start run is disabled with the reason and the fix", async ({ page }) => {
  const studio = await spawnStudio({ env: { DATABASE_URL: e2eDatabaseUrl(), OPENAI_BASE_URL: "" } });
  try {
    await page.goto(`${studio.base}/runs`);
    const start = page.getByRole("button", { name: "Start run" });
    await expect(start).toBeDisabled();
    await expect(start).toHaveAccessibleDescription("Disabled: no LLM endpoint is configured.");
    const alert = page.getByRole("alert").filter({ hasText: "No LLM endpoint" });
    await expect(alert).toContainText("Set OPENAI_BASE_URL");
    await expect(alert).toContainText("npm start -- --demo");
    await expect(page.getByTestId("demo-badge")).toHaveCount(0);
  } finally {
    await page.goto("about:blank");
    await studio.stop();
  }
});

test("a failed environment is archived with a reason: hidden from the list, shown on request, audited, restored", async ({
  page,
}) => {
  const db = e2eDb();
  const name = unique("Broken desk");
  const env = await db.environment.create({
    data: {
      projectId: await defaultProjectId(),
      slug: unique("broken-desk"),
      name,
      status: "FAILED",
      origin: "PIPELINE",
    },
  });
  try {
    await page.goto(`/environments/${env.id}`);
    await page.getByLabel("Archive reason").fill("the run failed before any code");
    await page.getByRole("button", { name: "Archive" }).click();
    await expect(page.getByTestId("archived-badge")).toBeVisible();
    await expect(page.getByRole("list", { name: "Archive history" })).toContainText("Archived by");
    await expect(page.getByRole("list", { name: "Archive history" })).toContainText(
      "the run failed before any code",
    );

    await page.goto("/environments");
    await page.getByLabel("Search environments").fill(name);
    await expect(page.getByText("No environments match")).toBeVisible();
    await page.getByRole("checkbox", { name: "Show archived" }).check();
    await expect(page.getByTestId("environment-row")).toHaveCount(1);
    await expect(page.getByTestId("environment-row")).toContainText("Archived");
    await expect(page).toHaveURL(/archived=1/);

    const decisions = await db.reviewDecision.findMany({
      where: { targetType: "ENVIRONMENT", targetId: env.id },
      select: { decision: true, reason: true },
    });
    expect(decisions).toEqual([{ decision: "ARCHIVE", reason: "the run failed before any code" }]);

    await page.getByTestId("environment-row").getByRole("link").click();
    await page.getByRole("button", { name: "Restore from archive" }).click();
    await expect(page.getByTestId("archived-badge")).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Archive history" })).toContainText("Restored by");
    expect((await db.environment.findUniqueOrThrow({ where: { id: env.id } })).archivedAt).toBeNull();
  } finally {
    await db.environment.delete({ where: { id: env.id } });
  }
});

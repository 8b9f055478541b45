/**
 * SkelBuilder from the browser: type an idea, watch the run to the end against the scripted
 * OpenAI-compatible server, open the environment it produced and a step's raw LLM exchange.
 */
import { deleteEnvironments, e2eDb } from "./db";
import { expect, test } from "./fixtures";

// studio.spec.ts expects only the samples among environments: remove what this run created.
const runIds: string[] = [];
test.afterAll(async () => {
  const envs = await e2eDb().environment.findMany({ where: { runId: { in: runIds } }, select: { id: true } });
  await deleteEnvironments(envs.map((e) => e.id));
});

test("start a run from an idea, watch it finish, open its environment and artifacts", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/runs");
  await page
    .getByRole("textbox", { name: /Environment ideas/ })
    .fill("A public library lending desk with holds and fines");
  await page.getByRole("spinbutton", { name: "Quality rounds" }).fill("6");
  await page.getByRole("textbox", { name: /^Name/ }).fill("e2e library run");
  await page.getByRole("button", { name: /start/i }).click();

  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  runIds.push(new URL(page.url()).pathname.split("/").at(-1)!);
  await expect(page.getByTestId("stage-progress")).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText(/Succeeded/, { timeout: 200_000 });

  const env = page.getByTestId("run-environments").getByRole("link").first();
  await expect(env).toBeVisible();
  await expect(page.getByTestId("run-environments")).toContainText(/In review/);

  // Every artifact is visible: a step's prompt and the model's raw response.
  await page.getByTestId("step-row").getByRole("link").first().click();
  await page.locator("summary").first().click();
  await expect(page.getByLabel("request", { exact: true }).first()).toContainText("[stage:");
  await expect(page.getByLabel("response", { exact: true }).first()).toBeVisible();

  await page.goBack();
  await page.getByTestId("run-environments").getByRole("link").first().click();
  await expect(page.getByTestId("tool-table")).toBeVisible();
  expect(await page.getByTestId("tool-row").count()).toBeGreaterThan(0);
});

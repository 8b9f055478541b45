/**
 * The run page explains a bad day at the endpoint: requests sent and what became of them, the
 * endpoint's error rate and latency, and each retried or rejected call with its cause — a 429 with
 * its Retry-After honoured, a 500, a reply of the wrong shape with the reason and the raw text — and
 * the step page shows the attempts of the retried call.
 */
import { deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";

const runIds: string[] = [];
test.afterAll(async () => {
  const envs = await e2eDb().environment.findMany({ where: { runId: { in: runIds } }, select: { id: true } });
  await deleteEnvironments(envs.map((e) => e.id));
});

test("a run against a flaky endpoint shows every failed attempt and rejected reply with its cause", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto("/runs");
  await page
    .getByRole("textbox", { name: /Environment ideas/ })
    .fill(`A flaky library lending desk ${unique("ledger")}`);
  await page.getByRole("spinbutton", { name: "Quality rounds" }).fill("2");
  await page.getByRole("button", { name: /start/i }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  runIds.push(new URL(page.url()).pathname.split("/").at(-1)!);
  await expect(page.getByTestId("run-status")).toHaveText(/Succeeded/, { timeout: 200_000 });

  await expect(page.getByTestId("llm-accounting")).toContainText(
    /\d+ requests sent · \d+ answers used · 1 rejected by the stage · 2 error responses · 0 answers lost/,
  );
  await expect(page.getByTestId("endpoint-quality")).toContainText(/RATE_LIMITED ×1/);
  await expect(page.getByTestId("endpoint-quality")).toContainText(/SERVER_ERROR ×1/);

  const problems = page.getByTestId("llm-problems");
  const retried = problems.getByTestId("llm-problem").filter({ hasText: "infer state space and rules" });
  await expect(retried.getByTestId("llm-attempts")).toContainText("RATE_LIMITED (HTTP 429)");
  await expect(retried.getByTestId("llm-attempts")).toContainText("Retry-After 50 ms honoured");
  await expect(retried.getByTestId("llm-attempts")).toContainText("SERVER_ERROR (HTTP 500)");
  await expect(retried.getByTestId("llm-attempts")).toContainText("answered");
  const rejected = problems.getByTestId("llm-problem").filter({ hasText: "infer operations" });
  await expect(rejected).toContainText(/rejected: operations: /);
  await rejected.locator("summary", { hasText: "raw reply" }).click();
  await expect(rejected).toContainText('{"unexpected":"shape"}');

  // The step page shows the attempts of the retried call.
  await retried.getByRole("link", { name: "infer state space and rules" }).click();
  await expect(page.getByTestId("llm-calls").getByTestId("llm-attempts").first()).toContainText(
    "Retry-After 50 ms honoured",
  );
});

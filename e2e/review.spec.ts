import {
  createEnvironment,
  createQualityCheck,
  createScenario,
  createTrajectory,
  createUser,
} from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { logIn } from "./login";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

test("quality review: override a probe verdict, accept with a reason, find both in the audit log", async ({
  page,
}) => {
  const db = e2eDb();
  const env = await createEnvironment(db, await defaultProjectId(), {
    status: "IN_REVIEW",
    name: unique("quality-env"),
  });
  created.push(env.id);
  await createQualityCheck(db, env.currentVersionId!, ["PASS", "FAIL", "PASS"]);
  await page.goto(`/environments/${env.id}/quality`);
  const probes = page.getByTestId("probe");
  await expect(probes).toHaveCount(3);
  await expect(probes.nth(1)).toContainText("judge says FAIL");
  // One metric against its threshold, recomputed after the override.
  await expect(page.getByTestId("quality-summary")).toContainText(
    "not-fail rate 67 % (2 of 3 probe calls not failing) against the threshold 85 %: ✗ below threshold",
  );
  await probes.nth(1).getByRole("button", { name: "Override → PASS" }).click();
  await expect(probes.nth(1).getByTestId("reviewer-verdict")).toContainText("PASS");
  await expect(page.getByTestId("quality-summary")).toContainText(
    "not-fail rate 100 % (3 of 3 probe calls not failing, after 1 reviewer override) against the threshold 85 %: ✓ passed",
  );
  await expect(probes.nth(1).getByRole("button", { name: "Override → PASS" })).toHaveCount(0);
  await probes.nth(0).getByRole("button", { name: "Confirm" }).click();
  await expect(probes.nth(0).getByTestId("reviewer-verdict")).toContainText("PASS");

  await page.getByLabel("Reason").fill("probe 2 failed only because the judge misread the refund rule");
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("status")).toHaveText("Accepted.");
  const log = page.getByTestId("audit-entry");
  await expect(log.first()).toContainText("accept");
  await expect(log.first()).toContainText("judge misread the refund rule");
  await expect(log.first()).toContainText(
    '{"status":"IN_REVIEW","acceptedVersionId":null} → {"status":"ACCEPTED","version":1,',
  );
  await expect(page.getByTestId("audit-log")).toContainText("override");
  await expect(page.getByTestId("audit-log")).toContainText("confirm");
  expect((await db.environment.findUniqueOrThrow({ where: { id: env.id } })).status).toBe("ACCEPTED");
});

test("review queue: filters, counts, j/k/a/r/e keys, and a claimed item is hidden from another reviewer", async ({
  page,
  browser,
}) => {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const domain = unique("queue");
  const envA = await createEnvironment(db, projectId, {
    status: "IN_REVIEW",
    domain,
    name: `${domain} alpha`,
  });
  created.push(envA.id);
  const envB = await createEnvironment(db, projectId, {
    status: "IN_REVIEW",
    domain,
    name: `${domain} beta`,
  });
  created.push(envB.id);
  const scenario = await createScenario(db, envA.id, {
    status: "DRAFT",
    proofReasons: ["gold run fails check 1"],
  });
  await createTrajectory(db, scenario.id, { flagReason: `${domain} low reward` });

  await page.goto(`/review?domain=${domain}`);
  await expect(page.getByTestId("count-environment")).toHaveText("2");
  await expect(page.getByTestId("count-scenario")).toHaveText("1");
  await expect(page.getByTestId("count-trajectory")).toHaveText("1");
  const items = page.getByTestId("queue-item");
  await expect(items).toHaveCount(4);
  await expect(items.nth(2)).toContainText("Gold run fails check 1.");
  await expect(page.getByTestId("claim-state")).toHaveText("yours while this page is open");

  // Another reviewer on the same filtered queue does not get the claimed first item.
  const bob = await createUser(db, { role: "REVIEWER" });
  const other = await browser.newContext();
  const bobPage = await other.newPage();
  await logIn(bobPage, bob.email, bob.password);
  await bobPage.goto(`/review?domain=${domain}&kind=environment`);
  await expect(bobPage.getByTestId("queue-item")).toHaveCount(1);
  await expect(bobPage.getByTestId("queue-item")).toContainText("beta");
  await other.close();

  await page.keyboard.press("a");
  await expect(page.getByTestId("queue-message")).toContainText(`Accepted: ${domain} alpha`);
  await expect(items).toHaveCount(3);
  await page.keyboard.press("j");
  await expect(items.nth(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("r");
  await page.getByLabel("Rejection reason").fill("task is ambiguous about the refund window");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("queue-message")).toContainText("Rejected:");
  await expect(items).toHaveCount(2);
  await page.keyboard.press("k");
  await expect(items.nth(0)).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("count-environment")).toHaveText("1");
  const decided = await db.reviewDecision.findFirstOrThrow({
    where: { targetType: "SCENARIO", targetId: scenario.id },
  });
  expect(decided).toMatchObject({ decision: "REJECT", reason: "task is ambiguous about the refund window" });

  await page.getByLabel("Filter by flag reason").selectOption(`${domain} low reward`);
  await expect(items).toHaveCount(1);
  await page.keyboard.press("e");
  await expect(page).toHaveURL(/\/scenarios\/.+\?trajectory=/);
  expect(envB.id).toBeTruthy();
});

test("a key pressed the moment a new filter's rows appear acts on those rows, not the old filter's", async ({
  page,
}) => {
  const db = e2eDb();
  const projectId = await defaultProjectId();
  const domain = unique("keyrace");
  const env = await createEnvironment(db, projectId, { status: "IN_REVIEW", domain, name: `${domain} env` });
  created.push(env.id);
  const scenario = await createScenario(db, env.id, { status: "ACCEPTED" });
  const trajectory = await createTrajectory(db, scenario.id, { flagReason: `${domain} flagged` });

  await page.goto(`/review?domain=${domain}`);
  const items = page.getByTestId("queue-item");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute("aria-current", "true");
  await expect(items.nth(0)).toContainText(`${domain} env`);
  // Press "e" in the task that put the filtered rows in the page: a mutation observer runs right
  // after React's commit, before the effects React runs later. The old queue's listener, if still
  // there, would open the old filter's current item (the environment's editor).
  await page.evaluate((key) => {
    const observer = new MutationObserver(() => {
      const rows = document.querySelectorAll('[data-testid="queue-item"]');
      if (rows.length !== 1 || rows[0]?.getAttribute("data-key") !== key) return;
      observer.disconnect();
      document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "e", bubbles: true }));
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }, `trajectory:${trajectory.id}`);
  await page.getByLabel("Filter by flag reason").selectOption(`${domain} flagged`);
  await expect(page).toHaveURL(new RegExp(`/scenarios/${scenario.id}\\?trajectory=${trajectory.id}`));
});

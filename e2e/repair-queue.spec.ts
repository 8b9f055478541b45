/**
 * The repair loop from the browser, through the real worker and the scripted LLM endpoint
 * (tests/fake-openai/serve.ts answers a check marked for this spec with its fix): a scenario whose
 * check expects the wrong count fails its proof; "Repair failing items" on its environment's page
 * makes a proven proposal; /review shows it with the current → proposed diff and both proofs side by
 * side; accepting it with the mouse saves the model's check as a new version, logged. An environment
 * whose quality probe failed gets a proven code repair from its quality page, shown with the source
 * diff and the probe before and after; accepting it saves a new environment version.
 */
import { createEnvironment, createScenario } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

test.describe.configure({ timeout: 300_000 });

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

/** Starts a REPAIR run with the repair launcher's `button` and waits for it to succeed. */
async function repairWith(page: Page, button: string) {
  const repair = page.getByTestId("repair-launcher");
  await repair.getByRole("button", { name: button }).click();
  await expect(repair.getByTestId("run-progress").first()).toHaveAttribute("data-status", "SUCCEEDED", {
    timeout: 240_000,
  });
}

/** The review queue's repairs of `domain`: exactly one, saying `summary`; answers its preview. */
async function openTheRepair(page: Page, domain: string, summary: string) {
  await page.goto(`/review?domain=${domain}&kind=repair`);
  const items = page.getByTestId("queue-item");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(summary);
  return page.getByTestId("queue-preview");
}

/** Accepts the shown repair with the mouse; it leaves the queue. */
async function acceptWithTheMouse(page: Page) {
  await page
    .getByTestId("queue-actions")
    .getByRole("button", { name: /^Accept/ })
    .click();
  await expect(page.getByTestId("queue-message")).toContainText("Accepted");
  await expect(page.getByTestId("queue-item")).toHaveCount(0);
}

const SOURCE = `class Counter:
    def __init__(self, init_config=None):
        self.count = 0

    def add(self, amount: int) -> dict:
        """Add to the counter."""
        self.count += amount
        return {"success": True, "data": self.count}
`;
const BROKEN =
  "def check_func(final_state):\n    # e2e: expects 3, the gold adds 2\n    return final_state.get('count') == 3\n";
const FIXED = "def check_func(final_state):\n    return final_state.get('count') == 2\n";

test("a failing check gets a proven repair from its environment's page, accepted in the review queue with the mouse", async ({
  page,
}) => {
  const db = e2eDb();
  const domain = unique("repair");
  const env = await createEnvironment(db, await defaultProjectId(), {
    name: `${domain} counter`,
    domain,
    source: SOURCE,
  });
  created.push(env.id);
  const scenario = await createScenario(db, env.id, {
    checks: [BROKEN],
    initialState: { count: 0 },
    goldCalls: [{ name: "add", arguments: { amount: 2 } }],
    task: "Add 2 to the counter.",
  });

  await page.goto(`/environments/${env.id}`);
  const launcher = page.getByTestId("run-launcher");
  await launcher.getByRole("button", { name: "Prove validators" }).click();
  await expect(launcher.getByTestId("run-progress").first()).toHaveAttribute("data-status", "SUCCEEDED", {
    timeout: 240_000,
  });
  await expect
    .poll(async () => (await db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).proofStatus)
    .toBe("FAILED");

  await page.reload();
  await repairWith(page, "Repair failing items");

  const preview = await openTheRepair(page, domain, "The gold solution adds 2, not 3.");
  await expect(preview.getByTestId("preview-diff-label")).toContainText("current → proposed");
  await expect(preview.getByTestId("preview-diff").locator(".view-lines").first()).toContainText(
    "def check_func",
    { timeout: 60_000 },
  );
  await expect(preview.getByTestId("proof-before")).toContainText("Current checks");
  await expect(preview.getByTestId("proof-before")).toContainText(/failed/i);
  await expect(preview.getByTestId("proof-after")).toContainText("Proposed checks");
  await expect(preview.getByTestId("proof-after")).toContainText(/verified/i);

  await acceptWithTheMouse(page);

  const validator = await db.validator.findFirstOrThrow({
    where: { scenarioId: scenario.id },
    include: { currentVersion: true },
  });
  expect(validator.currentVersion).toMatchObject({ version: 2, code: FIXED });
  expect(validator.currentVersion?.producedBy).toMatch(/^repair:/);
  const proposal = await db.repairProposal.findFirstOrThrow({ where: { scenarioId: scenario.id } });
  expect(proposal.status).toBe("ACCEPTED");
  expect(await db.reviewDecision.count({ where: { targetId: proposal.id, decision: "ACCEPT" } })).toBe(1);
});

const ADDS_TWICE = `class Counter:
    def __init__(self, init_config=None):
        self.count = 0

    def add(self, amount: int) -> dict:
        """Add to the counter."""
        self.count += amount * 2  # e2e: adds twice
        return {"success": True, "data": self.count}
`;

test("an environment whose quality probe failed gets a proven code repair from its quality page, accepted in the queue with the mouse", async ({
  page,
}) => {
  const db = e2eDb();
  const domain = unique("repair-env");
  const env = await createEnvironment(db, await defaultProjectId(), {
    name: `${domain} counter`,
    domain,
    source: ADDS_TWICE,
    status: "FAILED",
  });
  created.push(env.id);
  await db.qualityCheck.create({
    data: {
      environmentVersionId: env.currentVersionId!,
      testState: { count: 0 },
      rounds: 1,
      probes: {
        create: [
          {
            index: 0,
            kind: "positive",
            toolName: "add",
            arguments: { amount: 2 },
            observation: { success: true, data: 4 },
            stateDiff: { added: [], removed: [], changed: [{ path: ["count"], old: 0, new: 4 }] },
            verdict: "FAIL",
            rationale: "Adding 2 to 0 left the counter at 4.",
          },
        ],
      },
    },
  });

  await page.goto(`/environments/${env.id}/quality`);
  await repairWith(page, "Repair the tools of 1 failed probe(s)");

  const preview = await openTheRepair(page, domain, "add added the amount twice.");
  await expect(preview.getByTestId("preview-diff-label")).toContainText("environment code v1 → proposed");
  await expect(preview.getByTestId("proof-before")).toContainText("Failed quality probes");
  await expect(preview.getByTestId("proof-before")).toContainText("Adding 2 to 0 left the counter at 4.");
  await expect(preview.getByTestId("proof-after")).toContainText("Re-run on the proposed code");
  await expect(preview.getByTestId("proof-after")).toContainText("judge: PASS");

  await acceptWithTheMouse(page);

  await page.goto(`/environments/${env.id}/quality`);
  await expect(page.getByText("Head is version 2.")).toBeVisible();
  const head = await db.environment.findUniqueOrThrow({
    where: { id: env.id },
    include: { currentVersion: true },
  });
  expect(head.status).toBe("IN_REVIEW");
  expect(head.currentVersion).toMatchObject({ version: 2, authorId: null });
  expect(head.currentVersion?.producedBy).toMatch(/^repair:/);
  expect(head.currentVersion?.message).toMatch(/^Repair by .+: add added the amount twice\.$/);
  expect(head.currentVersion?.source).not.toContain("e2e: adds twice");
});

/**
 * Editor habits: Ctrl+S saves in the code editor and in a check's editor (or says why it cannot),
 * saving an accepted item asks first because it goes back to review, and Ctrl+Enter runs the
 * validator bench and the playground's tool — from inside Monaco too, which must not take the key.
 */
import type { Page } from "@playwright/test";
import { createEnvironment, createScenario } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { typeAtEnd } from "./monaco";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

/** Answers the next confirm() with `accept` and returns its text. */
function answerConfirm(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", (dialog) => {
      resolve(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });
}

// Monaco and sandbox episodes start cold in each test; a busy 2-core machine needs the room.
test.describe.configure({ timeout: 180_000 });

test("Ctrl+S in the code editor: says why it cannot save, asks before an accepted environment goes back to review", async ({
  page,
}) => {
  const db = e2eDb();
  const env = await createEnvironment(db, await defaultProjectId(), {
    name: unique("ctrl-s"),
    status: "ACCEPTED",
  });
  created.push(env.id);
  await page.goto(`/environments/${env.id}/edit`);
  // Monaco loads on first use (slow on a busy machine).
  await expect(page.getByTestId("code-editor").locator(".view-lines")).toContainText("class Counter", {
    timeout: 60_000,
  });
  const saveButton = page.getByRole("button", { name: "Save new version" });
  await expect(saveButton).toBeDisabled();
  await expect(saveButton).toHaveAttribute("title", "Nothing to save: the code is unchanged.");
  await expect(page.getByTestId("save-hint")).toHaveText("Nothing to save: the code is unchanged.");

  // Typed in Monaco, no message yet: Ctrl+S explains and puts the cursor in the message field.
  await typeAtEnd(page, "# checked by hand");
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("save-status")).toContainText("Not saved. Write a version message first");
  await expect(page.getByLabel("Version message")).toBeFocused();
  await expect(saveButton).toHaveAttribute("title", /Write a version message first/);

  // The environment is accepted: Ctrl+S asks; declining saves nothing.
  await page.keyboard.type("add a note");
  let asked = answerConfirm(page, false);
  await page.keyboard.press("Control+s");
  expect(await asked).toContain("sends the environment back to the review queue");
  await expect(page.getByTestId("save-status")).toContainText("Not saved: the accepted environment");
  expect(await db.environmentVersion.count({ where: { environmentId: env.id } })).toBe(1);

  asked = answerConfirm(page, true);
  await page.keyboard.press("Control+s");
  await asked;
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 2");
  expect((await db.environment.findUniqueOrThrow({ where: { id: env.id } })).status).toBe("IN_REVIEW");

  // Back in review now: the next Ctrl+S, pressed inside Monaco, saves without asking.
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  await typeAtEnd(page, "# second pass");
  await page.getByLabel("Version message").fill("second pass");
  await page.getByTestId("code-editor").locator(".view-lines").click();
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 3");
  expect(dialogs).toBe(0);
  const v3 = await db.environmentVersion.findFirstOrThrow({ where: { environmentId: env.id, version: 3 } });
  expect(v3.source).toContain("# second pass");
  expect(v3.message).toBe("second pass");
});

test("a check's editor: Ctrl+S saves the check (asking first on an accepted scenario), Ctrl+Enter runs the bench", async ({
  page,
}) => {
  const db = e2eDb();
  const env = await createEnvironment(db, await defaultProjectId(), { name: unique("bench-keys") });
  created.push(env.id);
  const scenario = await createScenario(db, env.id, { status: "ACCEPTED" });
  await page.goto(`/scenarios/${scenario.id}`);
  const card = page.getByTestId("validator").first();
  const lines = card.locator(".view-lines");
  await expect(lines).toContainText("def check_func", { timeout: 60_000 });

  // Ctrl+Enter inside the check's editor runs the bench; Monaco does not get to insert a line.
  await lines.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("bench-summary")).toContainText("0/1 checks passed on the initial state", {
    timeout: 60_000,
  });
  await expect(card).not.toContainText("edited (not saved)");

  await page.keyboard.type("  # count starts at 0");
  await expect(card).toContainText("edited (not saved)");
  await expect(card.getByTestId("save-hint")).toHaveText("Write a message first: why this change?");
  await page.keyboard.press("Control+s");
  await expect(card.getByRole("status")).toHaveText("Not saved. Write a message first: why this change?");
  await expect(card.getByLabel("Message for check 1")).toBeFocused();
  await page.keyboard.type("explain the start value");

  const asked = answerConfirm(page, true);
  await lines.click();
  await page.keyboard.press("Control+s");
  expect(await asked).toContain("sends the scenario back to the review queue");
  await expect(card.getByRole("status")).toContainText("Saved as version 2");
  await expect(card).not.toContainText("edited (not saved)");
  const saved = await db.validatorVersion.findFirstOrThrow({
    where: { validator: { scenarioId: scenario.id }, version: 2 },
  });
  expect(saved.code).toContain("# count starts at 0");
  expect((await db.scenario.findUniqueOrThrow({ where: { id: scenario.id } })).status).not.toBe("ACCEPTED");
});

test("Ctrl+Enter runs the selected tool in the playground", async ({ page }) => {
  await page.goto("/environments/library-lending/playground");
  await expect(page.getByTestId("playground-state")).toContainText("Alice Moreno");
  await page.getByRole("button", { name: "get_member", exact: true }).click();
  await page.getByTestId("tool-form").getByLabel("member_id").fill("M001");
  await page.keyboard.press("Control+Enter");
  // The first call starts a sandbox episode (slow on a busy machine).
  await expect(page.getByTestId("playground-step")).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId("step-observation").first()).toContainText("alice.moreno@example.org");
  // A missing required argument: the form's own check answers, nothing runs.
  await page.getByTestId("tool-form").getByLabel("member_id").fill("");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("tool-form").getByRole("alert")).toHaveText("Required: member_id");
  await expect(page.getByTestId("playground-step")).toHaveCount(1);
});

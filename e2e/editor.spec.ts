import { createEnvironment } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { typeAtEnd } from "./monaco";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

test("edit code in Monaco, save a version with tools re-extracted, refuse a stale save with a diff", async ({ page, context }) => {
  const env = await createEnvironment(e2eDb(), await defaultProjectId(), { name: unique("edit-env") });
  created.push(env.id);
  await page.goto(`/environments/${env.id}/edit`);
  await expect(page.getByTestId("code-editor").locator(".view-lines")).toContainText("class Counter");
  const other = await context.newPage();
  await other.goto(`/environments/${env.id}/edit`);
  await expect(other.getByTestId("code-editor").locator(".view-lines")).toContainText("class Counter");

  // A syntax error shows as a marker (and blocks saving).
  await typeAtEnd(page, "def broken(:");
  await expect(page.getByTestId("marker-list")).toContainText("SyntaxError", { timeout: 20_000 });
  await expect(page.getByTestId("code-editor").locator(".squiggly-error")).not.toHaveCount(0);
  await page.keyboard.press("Shift+Home");
  await page.keyboard.type("# reviewed by e2e");
  await expect(page.getByTestId("marker-list")).toHaveCount(0, { timeout: 20_000 });
  await page.getByLabel("Version message").fill("note the review");
  await page.getByRole("button", { name: "Save new version" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 2; 1 tools extracted.");
  await expect(page.getByTestId("tool-row")).toHaveCount(1);
  await expect(page.getByTestId("editor-base")).toHaveText("Editing on top of version 2");

  // The second tab still edits version 1: its save is refused with the new head in a diff.
  await typeAtEnd(other, "# a competing edit");
  await other.getByLabel("Version message").fill("late edit");
  await other.getByRole("button", { name: "Save new version" }).click();
  await expect(other.getByTestId("save-conflict")).toContainText("Not saved: version 2");
  await expect(other.getByTestId("conflict-diff").locator(".view-lines").first()).toContainText("reviewed by e2e");
  expect(await e2eDb().environmentVersion.count({ where: { environmentId: env.id } })).toBe(2);
  await other.getByRole("button", { name: "Keep my text on top of version 2" }).click();
  await other.getByRole("button", { name: "Save new version" }).click();
  await expect(other.getByTestId("save-status")).toContainText("Saved as version 3");
  await other.close();

  // Unsaved changes: leaving through an in-app link asks first.
  await typeAtEnd(page, "# not saved yet");
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("link", { name: "Compare versions" }).click();
  await expect(page).toHaveURL(/\/edit$/);
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("link", { name: "Compare versions" }).click();
  await expect(page).toHaveURL(/\/versions/);
  await expect(page.getByTestId("version-list").locator("li")).toHaveCount(3);
  await expect(page.getByTestId("version-diff").locator(".view-lines").last()).toContainText("competing edit");
  await page.getByLabel("Left version").selectOption("1");
  await expect(page).toHaveURL(/a=1&b=3/);
});

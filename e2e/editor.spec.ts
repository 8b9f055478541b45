import { createEnvironment } from "../prisma/seed/factories";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { typeAtEnd } from "./monaco";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

test("edit code in Monaco, save a version with tools re-extracted, merge a concurrent save three ways", async ({
  page,
  context,
}) => {
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
  // Tab A also rewords the docstring (line 6 of the factory's Counter).
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.type(" value");
  await page.getByLabel("Version message").fill("note the review");
  await page.getByRole("button", { name: "Save new version" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 2; 1 tools extracted.");
  await expect(page.getByTestId("tool-row")).toHaveCount(1);
  await expect(page.getByTestId("editor-base")).toHaveText("Editing on top of version 2");

  // Tab B still edits version 1 and adds a comment at the top: the save is refused, and a
  // three-way merge keeps both edits since they do not overlap.
  await other.getByTestId("code-editor").locator(".view-lines").click();
  await other.keyboard.press("Control+Home");
  await other.keyboard.type("# a competing edit");
  await other.keyboard.press("Enter");
  await other.getByLabel("Version message").fill("late edit");
  await other.getByRole("button", { name: "Save new version" }).click();
  await expect(other.getByTestId("save-conflict")).toContainText("Not saved: version 2");
  await expect(other.getByTestId("merge-summary")).toContainText("merged automatically; nothing overlaps.");
  expect(await e2eDb().environmentVersion.count({ where: { environmentId: env.id } })).toBe(2);
  await other.getByRole("button", { name: "Use the merged text" }).click();
  await expect(other.getByTestId("editor-base")).toContainText(
    "Editing on top of version 2 (merged with your edit of version 1)",
  );
  await other.getByRole("button", { name: "Save new version" }).click();
  await expect(other.getByTestId("save-status")).toContainText("Saved as version 3");
  const v3 = await e2eDb().environmentVersion.findFirstOrThrow({
    where: { environmentId: env.id, version: 3 },
    include: { parentVersion: true },
  });
  expect(v3.source).toContain("# a competing edit");
  expect(v3.source).toContain("# reviewed by e2e");
  expect(v3.source).toContain('"""Return the counter value."""');
  expect(v3.parentVersion?.version).toBe(2);
  expect(v3.mergedParentVersionId).toBe(env.currentVersionId);

  // Overlapping edits: B ends the file one way (v4), A (still on v2) another. The overlapping
  // hunk is shown side by side and the merge waits for an explicit choice.
  await typeAtEnd(other, "# ending B");
  await other.getByLabel("Version message").fill("ending B");
  await other.getByRole("button", { name: "Save new version" }).click();
  await expect(other.getByTestId("save-status")).toContainText("Saved as version 4");
  await typeAtEnd(page, "# ending A");
  await page.getByLabel("Version message").fill("ending A");
  await page.getByRole("button", { name: "Save new version" }).click();
  const conflict = page.getByTestId("merge-conflict");
  await expect(conflict).toHaveCount(1);
  await expect(conflict.getByTestId("merge-theirs")).toContainText("# ending B");
  await expect(conflict.getByTestId("merge-mine")).toContainText("# ending A");
  await expect(page.getByRole("button", { name: "Use the merged text" })).toBeDisabled();
  await conflict.getByRole("radio", { name: "Keep both" }).click();
  await page.getByRole("button", { name: "Use the merged text" }).click();
  await page.getByRole("button", { name: "Save new version" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as version 5");
  const v5 = await e2eDb().environmentVersion.findFirstOrThrow({
    where: { environmentId: env.id, version: 5 },
  });
  for (const part of ["# a competing edit", "# ending B", "# ending A", "counter value"])
    expect(v5.source).toContain(part);
  await other.close();

  // Unsaved changes: leaving through an in-app link asks first.
  await typeAtEnd(page, "# not saved yet");
  page.once("dialog", (d) => void d.dismiss());
  await page.getByRole("link", { name: "Compare versions" }).click();
  await expect(page).toHaveURL(/\/edit$/);
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("link", { name: "Compare versions" }).click();
  await expect(page).toHaveURL(/\/versions/);
  await expect(page.getByTestId("version-list").locator("li")).toHaveCount(5);
  // The diff opens at the change (v4 → v5), the unchanged lines above it folded away.
  await expect(page.getByTestId("version-diff").locator(".view-lines").last()).toContainText("# ending A");
  await page.getByLabel("Left version").selectOption("1");
  await expect(page).toHaveURL(/a=1&b=5/);
});

test("a version diff opens at the first change, hides unchanged regions and steps from change to change", async ({
  page,
}) => {
  const db = e2eDb();
  const body = Array.from(
    { length: 120 },
    (_, i) => `    def method_${i}(self) -> dict:\n        return {"success": True, "data": ${i}}\n`,
  ).join("\n");
  const source = `class Counter:\n${body}`;
  const env = await createEnvironment(db, await defaultProjectId(), { name: unique("diff-env"), source });
  created.push(env.id);
  const edited = source
    .replace('"data": 90}', '"data": "ninety"}')
    .replace('"data": 110}', '"data": "one-ten"}');
  await db.environmentVersion.create({
    data: {
      environmentId: env.id,
      version: 2,
      className: "Counter",
      source: edited,
      sourceHash: "x",
      producedBy: "test",
      parentVersionId: env.currentVersionId,
    },
  });

  await page.goto(`/environments/${env.id}/versions?a=1&b=2`);
  const diff = page.getByTestId("version-diff");
  await expect(diff.getByTestId("diff-position")).toHaveText("change 1 of 2");
  // Opened at the first change (line ~360 of a 360-line file), with the unchanged lines folded away.
  await expect(diff.locator(".modified .view-lines")).toContainText('"ninety"');
  await expect(diff.locator(".diff-hidden-lines")).not.toHaveCount(0);
  await diff.getByRole("button", { name: "Next change" }).click();
  await expect(diff.getByTestId("diff-position")).toHaveText("change 2 of 2");
  await expect(diff.locator(".modified .view-lines")).toContainText('"one-ten"');
  await diff.getByLabel("Hide unchanged regions").uncheck();
  await expect(diff.locator(".diff-hidden-lines")).toHaveCount(0);
});

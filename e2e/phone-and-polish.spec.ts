/**
 * The studio on a phone (390×844): the main navigation collapses behind a Menu button that works
 * from the keyboard, every nav link stays reachable, and no page scrolls sideways. Also the
 * Scenarios table's sticky header (columns aligned, opaque in light and dark) and the styled file
 * picker (a visible button, the chosen file's name, operable from the keyboard).
 */
import type { Page } from "@playwright/test";
import { defaultProjectId, e2eDb } from "./db";
import { expect, test } from "./fixtures";
import { focusProblems, tabTo } from "./keyboard";

const NAV_LINKS = [
  "Dashboard",
  "Environments",
  "Runs",
  "Scenarios",
  "Review queue",
  "Users",
  "Datasets",
  "Corpus map",
];

test.beforeEach(() => {
  focusProblems.length = 0;
});

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the nav collapses into a menu a keyboard opens, every link is reachable, no page scrolls sideways", async ({
    page,
  }) => {
    const dataset = await e2eDb().dataset.findFirst({
      where: { projectId: await defaultProjectId(), versions: { some: {} } },
    });
    const pages = [
      "/",
      "/environments",
      "/runs",
      "/scenarios",
      "/review",
      "/datasets",
      "/datasets/import",
      "/corpus",
      "/users",
      ...(dataset ? [`/datasets/${dataset.id}`] : []),
    ];
    const wide: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      await page.waitForLoadState("networkidle");
      const extra = await sideways(page);
      if (extra > 0) wide.push(`${path} scrolls ${extra}px sideways`);
    }
    expect(wide).toEqual([]);

    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const menu = nav.getByRole("button", { name: "Menu" });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Datasets" })).toBeHidden();

    await tabTo(page, menu);
    await page.keyboard.press("Enter");
    const close = nav.getByRole("button", { name: "Close menu" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    for (const name of NAV_LINKS) {
      const link = nav.getByRole("link", { name, exact: true });
      await expect(link).toBeVisible();
      await tabTo(page, link, { max: 12 });
    }
    // Escape closes it and hands focus back to the button.
    await page.keyboard.press("Escape");
    await expect(menu).toBeFocused();
    await expect(nav.getByRole("link", { name: "Datasets" })).toBeHidden();

    // Space opens it too; following a link closes it on the next page.
    await page.keyboard.press("Space");
    await tabTo(page, nav.getByRole("link", { name: "Datasets" }), { max: 12 });
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/datasets$/);
    await expect(nav.getByRole("link", { name: "Datasets" })).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    expect(focusProblems).toEqual([]);
  });
});

test("on a wide screen the nav is one row of links and no menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("button", { name: "Menu" })).toBeHidden();
  for (const name of NAV_LINKS) await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
});

for (const scheme of ["light", "dark"] as const)
  test(`the Scenarios table's header sticks, opaque, over its aligned columns (${scheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto("/scenarios");
    const table = page.getByTestId("scenario-table");
    await expect(table.locator("tbody tr").first()).toBeVisible();
    const headers = table.locator("thead th");
    await expect(headers).toHaveText(
      ["Select", "Scenario", "Environment", "Status", "Proof", "Checks", "Rollouts"],
      { ignoreCase: true },
    );
    const layout = () =>
      table.evaluate((t) => {
        const box = t.parentElement!;
        const heads = [...t.querySelectorAll("thead th")].map((th) => th.getBoundingClientRect());
        const cells = [...t.querySelectorAll("tbody tr:first-child td")].map((td) =>
          td.getBoundingClientRect(),
        );
        const head = t.querySelector("thead")!;
        return {
          aligned: heads.map((h) => [Math.round(h.left), Math.round(h.right)] as const),
          columns: cells.map((c) => [Math.round(c.left), Math.round(c.right)] as const),
          headTop: Math.round(head.getBoundingClientRect().top),
          boxTop: Math.round(box.getBoundingClientRect().top + box.clientTop),
          background: getComputedStyle(head).backgroundColor,
          scrollable: box.scrollHeight > box.clientHeight,
        };
      });
    const before = await layout();
    expect(before.aligned).toEqual(before.columns);
    expect(before.background).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
    if (before.scrollable) {
      await table.evaluate((t) => t.parentElement!.scrollBy(0, 300));
      const after = await layout();
      expect(after.headTop).toBe(after.boxTop);
    }
  });

test("the file picker shows a button and the chosen file's name, and takes the keyboard", async ({
  page,
}) => {
  await page.goto("/datasets/import");
  const picker = page.getByLabel("Import files");
  const group = page.locator("[data-file-input]").filter({ has: picker });
  await expect(group.getByText("Choose files")).toBeVisible();
  await expect(group.getByTestId("file-input-chosen")).toHaveText("No files chosen");
  await tabTo(page, picker);
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.keyboard.press("Space")]);
  await chooser.setFiles({
    name: "env_metadata.json",
    mimeType: "application/json",
    buffer: Buffer.from("{}"),
  });
  await expect(group.getByTestId("file-input-chosen")).toHaveText("env_metadata.json");
  expect(focusProblems).toEqual([]);
});

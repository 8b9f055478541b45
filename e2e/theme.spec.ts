/**
 * Dark mode: the system's `prefers-color-scheme` is followed until the visitor picks a theme with
 * the toggle; the choice survives a reload and wins over the system. Colours are read as the
 * browser paints them (a pixel of the page's background and of a card), not from class names.
 * Screenshots of the dark pages are kept with the test's output.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** Relative luminance (0 black … 1 white) of a computed CSS colour, as a canvas paints it. */
const luminanceOf = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`no ${sel}`);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  }, selector);

test("follows the system's dark scheme; the toggle's choice wins and survives a reload", async ({
  page,
}, testInfo) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle).toHaveAttribute("data-theme", "system");
  expect(await luminanceOf(page, "body")).toBeLessThan(0.05);
  expect(await luminanceOf(page, "header")).toBeLessThan(0.1);
  await page.screenshot({ path: testInfo.outputPath("dark-dashboard.png"), fullPage: true });
  await page.goto("/review");
  await page.screenshot({ path: testInfo.outputPath("dark-review.png"), fullPage: true });

  // system → light: light although the system is dark, also after a reload.
  await toggle.click();
  await expect(toggle).toHaveAttribute("data-theme", "light");
  expect(await luminanceOf(page, "body")).toBeGreaterThan(0.8);
  await page.reload();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme", "light");
  expect(await luminanceOf(page, "body")).toBeGreaterThan(0.8);

  // light → dark: dark although the system turns light.
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByTestId("theme-toggle").click();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme", "dark");
  expect(await luminanceOf(page, "body")).toBeLessThan(0.05);
  await page.reload();
  expect(await luminanceOf(page, "body")).toBeLessThan(0.05);

  // dark → system: the light system scheme again, and it is followed live.
  await page.getByTestId("theme-toggle").click();
  await expect(page.getByTestId("theme-toggle")).toHaveAttribute("data-theme", "system");
  expect(await luminanceOf(page, "body")).toBeGreaterThan(0.8);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => luminanceOf(page, "body")).toBeLessThan(0.05);
});

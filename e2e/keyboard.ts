/**
 * Moving through a page the way a keyboard user does: Tab (or Shift+Tab) until the wanted element
 * has focus, and a check that the focused element shows a focus ring. Nothing here clicks.
 */
import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement).catch(() => false);

/** What has focus, for a failure message: tag, accessible text and label. */
const describeFocus = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return "nothing";
    const label = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 60) ?? "";
    return `<${el.tagName.toLowerCase()}> ${label}`;
  });

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has focus, at most `max` times, then checks
 * that it shows a visible focus ring.
 */
export async function tabTo(page: Page, target: Locator, { max = 60, backwards = false } = {}) {
  const seen: string[] = [];
  for (let i = 0; i <= max; i++) {
    if (await isFocused(target)) {
      await expectFocusRing(target);
      return;
    }
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    seen.push(await describeFocus(page));
  }
  throw new Error(
    `${max} presses of ${backwards ? "Shift+Tab" : "Tab"} never reached ${target.toString()}; focus went:\n  ${seen.join("\n  ")}`,
  );
}

/** The focused element draws an outline or a ring (box-shadow): a keyboard user can see where they are. */
export async function expectFocusRing(target: Locator) {
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    return { outline, shadow: style.boxShadow !== "none", focusVisible: el.matches(":focus-visible") };
  });
  expect(ring.focusVisible, `${target.toString()} matches :focus-visible`).toBe(true);
  expect(ring.outline || ring.shadow, `${target.toString()} shows a focus ring`).toBe(true);
}

/**
 * Moving through a page the way a keyboard user does: Tab (or Shift+Tab) until the wanted element
 * has focus, noting every element focus passes that shows no focus ring or cannot be seen
 * (`focusProblems`). Nothing here clicks.
 */
import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement).catch(() => false);

type Stop = { what: string; ring: boolean; visible: boolean };

/**
 * Where focus is now: a description, whether it shows a ring (its own outline or box-shadow; for the
 * visually hidden input of a FileInput, the button beside it) and whether it takes up space on the
 * page (a focus stop nobody can see is a focus-order bug).
 */
const focusStop = (page: Page): Promise<Stop> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { what: "body", ring: true, visible: true };
    const label = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 60) ?? "";
    const what = `<${el.tagName.toLowerCase()}> ${label}`;
    const shows = (node: Element | null) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      return (
        (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none"
      );
    };
    const picker = el.closest("[data-file-input]");
    const target = picker ? el.nextElementSibling : el;
    const rect = (target ?? el).getBoundingClientRect();
    return { what, ring: shows(target), visible: rect.width > 1 && rect.height > 1 };
  });

/** Focus stops met on the way that showed no ring or could not be seen, across every tabTo of a page. */
export const focusProblems: string[] = [];

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
    const stop = await focusStop(page);
    seen.push(stop.what);
    if (!stop.ring) focusProblems.push(`${stop.what}: no focus ring (${page.url()})`);
    if (!stop.visible) focusProblems.push(`${stop.what}: focused but not visible (${page.url()})`);
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

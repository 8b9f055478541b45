import type { Page } from "@playwright/test";

/** Types `text` on a new top-level line at the end of the Monaco editor. */
export async function typeAtEnd(page: Page, text: string) {
  const editor = page.getByTestId("code-editor");
  await editor.locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  // Monaco re-indents after Enter; start the line at column 1 so the text is top level.
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+Home");
  await page.keyboard.type(text);
}

import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export async function logIn(page: Page, email: string, password: string, base = "") {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // On localhost the nav already shows the implicit local admin; "Sign out" appears only with a session.
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Signing out loads the sign-in page in full (nothing cached from the account survives): wait for
 * that load, or a following navigation interrupts it. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);
}

/**
 * First start with login required, the whole way a new operator walks it: `npm start`
 * on an empty database prints a one-time password for admin@localhost; the admin signs in with it,
 * creates a reviewer, and the reviewer signs in.
 */
import { e2eDatabaseUrl, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { logIn, signOut } from "./login";
import { spawnStudio } from "./spawn-studio";

test.setTimeout(300_000);

test("first start with login required: one-time password from the log, admin signs in, creates a reviewer who signs in", async ({
  page,
}) => {
  const database = unique("first_start").replaceAll("-", "_");
  await e2eDb().$executeRawUnsafe(`create database "${database}"`);
  const url = new URL(e2eDatabaseUrl());
  url.pathname = `/${database}`;
  const studio = await spawnStudio({
    how: "npm-start",
    env: {
      DATABASE_URL: url.toString(),
      ENVSTUDIO_REQUIRE_LOGIN: "1",
      ENVSTUDIO_SEED_SAMPLES: "0",
      ENVSTUDIO_START_WORKER: "0",
    },
  });
  try {
    const password = /created admin account admin@localhost with the one-time password: (\S+)/.exec(
      studio.output(),
    )?.[1];
    expect(password, studio.output()).toBeTruthy();

    await page.goto(`${studio.base}/users`);
    await expect(page).toHaveURL(/\/login\?next=%2Fusers/);
    await logIn(page, "admin@localhost", password ?? "", studio.base);
    await expect(page.getByTestId("current-user")).toContainText("admin");

    await page.goto(`${studio.base}/users`);
    const email = `${unique("rita")}@localhost`;
    await page.getByLabel("New user email").fill(email);
    await page.getByLabel("New user name").fill("Rita Reviewer");
    await page.getByLabel("New user role").selectOption("REVIEWER");
    await page.getByLabel("New user password").fill("reviewer-password-1");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByTestId("user-row").filter({ hasText: email })).toBeVisible();

    await signOut(page);
    await logIn(page, email, "reviewer-password-1", studio.base);
    await expect(page.getByTestId("current-user")).toContainText("reviewer");
  } finally {
    // Leave the studio's pages first: a poll that fires after the studio stopped would fail to load.
    await page.goto("about:blank");
    await studio.stop();
    await e2eDb().$executeRawUnsafe(`drop database if exists "${database}" with (force)`);
  }
});

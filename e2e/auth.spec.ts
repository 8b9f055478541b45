/**
 * Users and roles: an admin creates accounts; a viewer reads but every mutation is refused by the
 * server; a studio listening off loopback (HOST=127.0.0.2) requires login for pages, API and actions.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createEnvironment } from "../prisma/seed/factories";
import { E2E_ADMIN } from "../playwright.config";
import { freePort } from "../tests/free-port";
import { actionResult, serverAction } from "./actions";
import { defaultProjectId, deleteEnvironments, e2eDatabaseUrl, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { logIn, signOut } from "./login";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

test("admin creates a viewer; the viewer sees read-only pages and the server refuses its mutations", async ({
  page,
}) => {
  const env = await createEnvironment(e2eDb(), await defaultProjectId(), {
    status: "IN_REVIEW",
    name: unique("viewer-env"),
  });
  created.push(env.id);
  await logIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto("/users");
  const email = `${unique("viewer")}@e2e.local`;
  await page.getByLabel("New user email").fill(email);
  await page.getByLabel("New user name").fill("Vera Viewer");
  await page.getByLabel("New user role").selectOption("VIEWER");
  await page.getByLabel("New user password").fill("viewer-password-1");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByTestId("user-row").filter({ hasText: email })).toBeVisible();

  await signOut(page);
  await logIn(page, email, "viewer-password-1");
  await expect(page.getByTestId("current-user")).toContainText("viewer");
  // Accounts are for admins only: no link, and the page itself shows no email or role.
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }),
  ).toHaveCount(0);
  await page.goto("/users");
  await expect(page.getByText("Only admins can see and manage accounts")).toBeVisible();
  await expect(page.getByText(E2E_ADMIN.email)).toHaveCount(0);
  await expect(page.getByTestId("user-row")).toHaveCount(0);
  await page.goto(`/environments/${env.id}/quality`);
  await expect(page.getByText("Viewers cannot accept or reject.")).toBeVisible();
  await page.goto(`/environments/${env.id}/edit`);
  await expect(page.getByText("You have read-only access (viewer).")).toBeVisible();
  // The UI hides the buttons; the server is what refuses.
  const refused = await page.request.post("/api/review/decisions", {
    data: { kind: "environment", id: env.id, decision: "ACCEPT", reason: "sneaky" },
  });
  expect(refused.status()).toBe(403);
  expect((await e2eDb().environment.findUniqueOrThrow({ where: { id: env.id } })).status).toBe("IN_REVIEW");
  // Launch actions called directly answer a viewer with a refusal as data, not a server error.
  const runsBefore = await e2eDb().pipelineRun.count();
  for (const name of ["launchProofAction", "launchGenerationAction", "launchRolloutsAction"]) {
    const action = serverAction(name);
    const reply = await page.request.post(action.page, {
      headers: {
        "next-action": action.id,
        "content-type": "text/plain;charset=UTF-8",
        accept: "text/x-component",
      },
      data: JSON.stringify([{ environmentId: env.id }]), // refused before it is parsed
    });
    const text = await reply.text();
    expect(reply.status(), `${name}: ${text.slice(0, 300)}`).toBe(200);
    expect(actionResult(text), name).toEqual({
      ok: false,
      error: {
        code: "FORBIDDEN",
        message: "This needs the reviewer role; you are signed in as a viewer.",
        retryable: false,
      },
    });
  }
  expect(await e2eDb().pipelineRun.count()).toBe(runsBefore);
});

test.describe("a studio reachable from the network", () => {
  let server: ChildProcess | undefined;
  let base = "";

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.2:${port}`;
    // Same build and database as the main studio, but listening on a non-loopback-only address.
    server = spawn(
      process.execPath,
      [path.resolve("node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.2", "-p", String(port)],
      {
        env: {
          ...process.env,
          NEXT_TELEMETRY_DISABLED: "1",
          HOST: "127.0.0.2",
          PORT: String(port),
          DATABASE_URL: e2eDatabaseUrl(),
        },
        stdio: "ignore",
      },
    );
    for (let i = 0; i < 120; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error("the 127.0.0.2 studio did not start");
  });

  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  test("requires login for pages, API routes and actions", async ({ page, request }) => {
    expect((await request.get(`${base}/api/environments`)).status()).toBe(401);
    expect(
      (await request.post(`${base}/review`, { headers: { "Next-Action": "x" }, data: "[]" })).status(),
    ).toBe(401);
    const forged = await request.get(`${base}/api/environments`, {
      headers: { cookie: "envstudio_session=forged" },
    });
    expect(forged.status()).toBe(401);
    await page.goto(`${base}/review`);
    await expect(page).toHaveURL(/\/login\?next=%2Freview/);
    await expect(page.getByText("reachable from the network")).toBeVisible();
    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Wrong email or password.")).toBeVisible();
    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Review queue" })).toBeVisible();
    expect((await page.request.get(`${base}/api/environments`)).status()).toBe(200);
  });
});

/**
 * Web security of the default localhost studio: pages on other origins cannot write, rebinding host
 * names are not answered, login never redirects away, every answer carries the security headers and
 * Monaco still works under the CSP.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createEnvironment } from "../prisma/seed/factories";
import { E2E_ADMIN } from "../playwright.config";
import { freePort } from "../tests/free-port";
import { serverAction } from "./actions";
import { defaultProjectId, deleteEnvironments, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { rawRequest } from "./raw-http";
import { spawnStudio } from "./spawn-studio";

const created: string[] = [];
test.afterAll(() => deleteEnvironments(created));

/** Serves one HTML page from another port of 127.0.0.1: same site as the studio, other origin. */
async function serveAttackPage(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(html),
  );
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("a page on another port cannot decide or import in the studio's name, with or without a session", async ({
  context,
  baseURL,
}) => {
  const env = await createEnvironment(e2eDb(), await defaultProjectId(), {
    status: "IN_REVIEW",
    name: unique("csrf-env"),
  });
  created.push(env.id);
  const sample = path.resolve("prisma/seed/samples/library-lending");
  const slug = unique("csrf-import");
  const files = ["environment.py", "scenarios.json", "meta.json"].map((name) => ({
    name: `${slug}/${name}`,
    text: fs.readFileSync(path.join(sample, name), "utf8"),
  }));
  const environmentsBefore = await e2eDb().environment.count();
  // A cross-site forgery as a browser allows it: no-cors text/plain JSON and multipart, with credentials.
  const attack = await serveAttackPage(`<!doctype html><title>start</title><script>
    (async () => {
      const studio = ${JSON.stringify(baseURL)};
      const decision = { kind: "environment", id: ${JSON.stringify(env.id)}, decision: "REJECT", reason: "forged" };
      await fetch(studio + "/api/review/decisions", { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: JSON.stringify(decision) }).catch(() => {});
      const form = new FormData();
      for (const f of ${JSON.stringify(files)}) { form.append("files", new File([f.text], f.name)); form.append("paths", f.name); }
      await fetch(studio + "/api/imports", { method: "POST", mode: "no-cors", credentials: "include", body: form }).catch(() => {});
      document.title = "sent";
    })();
  </script>`);
  try {
    // A separate tab: its console may report the refused requests, which is the point.
    const attacker = await context.newPage();
    await attacker.goto(attack.url);
    await expect(attacker).toHaveTitle("sent");
  } finally {
    await attack.close();
  }
  expect((await e2eDb().environment.findUniqueOrThrow({ where: { id: env.id } })).status).toBe("IN_REVIEW");
  expect(await e2eDb().reviewDecision.count({ where: { targetId: env.id } })).toBe(0);
  expect(await e2eDb().environment.count()).toBe(environmentsBefore);
});

test("JSON routes refuse other content types; writes from another origin are refused with a message", async ({
  request,
  baseURL,
}) => {
  const body = JSON.stringify({ kind: "environment", id: "x", decision: "ACCEPT", reason: "r" });
  const plain = await request.post("/api/review/decisions", {
    headers: { "content-type": "text/plain" },
    data: body,
  });
  expect(plain.status()).toBe(415);
  expect(await plain.text()).toContain("Send application/json");
  // The queue's undo and beacon release are JSON writes like the others.
  for (const url of ["/api/review/undo", "/api/review/claims/release"]) {
    const res = await request.post(url, {
      headers: { "content-type": "text/plain" },
      data: '{"kind":"environment","id":"x"}',
    });
    expect(res.status(), url).toBe(415);
    const foreignWrite = await request.post(url, {
      headers: { "content-type": "application/json", origin: "http://127.0.0.1:1" },
      data: '{"kind":"environment","id":"x"}',
    });
    expect(foreignWrite.status(), url).toBe(403);
  }
  const foreign = await request.post("/api/review/claims", {
    headers: { "content-type": "application/json", origin: "http://127.0.0.1:1" },
    data: body,
  });
  expect(foreign.status()).toBe(403);
  expect(await foreign.text()).toContain("Cross-site request refused");
  const sameSite = await request.delete("/api/review/claims", {
    headers: { "content-type": "application/json", "sec-fetch-site": "same-site" },
    data: body,
  });
  expect(sameSite.status()).toBe(403);
  // The studio's own pages still write (same origin).
  const own = await request.post("/api/review/claims", {
    headers: { "content-type": "application/json", origin: new URL(baseURL ?? "").origin },
    data: JSON.stringify({ kind: "environment", id: "missing" }),
  });
  expect(own.status()).toBeLessThan(500);
  expect(own.status()).not.toBe(403);
});

test("a DNS-rebinding host name is not answered, so it cannot create an admin through a server action", async ({
  baseURL,
}) => {
  const base = baseURL ?? "";
  const port = new URL(base).port;
  const email = `${unique("rebound")}@evil.example`;
  const action = serverAction("createUserAction");
  const rebound = await rawRequest(base, {
    method: "POST",
    path: action.page,
    headers: {
      host: `rebind.example:${port}`,
      origin: `http://rebind.example:${port}`,
      "next-action": action.id,
      "content-type": "text/plain;charset=UTF-8",
    },
    body: JSON.stringify([{ email, name: "Mallory", role: "ADMIN", password: "mallory-password-1" }]),
  });
  expect(rebound.status).toBe(421);
  expect(rebound.text).toContain("does not answer to the host name");
  expect(await e2eDb().user.count({ where: { email } })).toBe(0);
  const page = await rawRequest(base, {
    method: "GET",
    path: "/users",
    headers: { host: `rebind.example:${port}` },
  });
  expect(page.status).toBe(421);
  expect(page.text).not.toContain(E2E_ADMIN.email);
  // The gate's exceptions (static assets) are whole path segments: a name that merely starts like
  // one is gated like any page, so no path answers a rebinding host with something other than 421.
  for (const path of [
    "/favicon.icox",
    "/favicon.ico/x",
    "/favicon.ico.json",
    "/_next/staticx",
    "/_next/static",
    "/_next/imagex",
    "/_next/image/x",
    "/users/favicon.ico",
  ]) {
    const reply = await rawRequest(base, {
      method: "GET",
      path,
      headers: { host: `rebind.example:${port}` },
    });
    expect(reply.status, path).toBe(421);
  }
  // What the exceptions are for: a real asset, answered on any Host (no data, no session).
  const asset = await rawRequest(base, { method: "GET", path: "/login", headers: {} });
  const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(asset.text)?.[1];
  expect(script).toBeTruthy();
  const served = await rawRequest(base, {
    method: "GET",
    path: script ?? "",
    headers: { host: `rebind.example:${port}` },
  });
  expect(served.status).toBe(200);
});

test("login follows only same-origin paths", async ({ page, baseURL }) => {
  await page.goto("/login?next=/%5Clocalhost:8099/x");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  // The signed-in shell can render before the redirect lands: wait for the URL, then judge it.
  await expect(page).toHaveURL(new URL("/", baseURL).href);
});

test("every answer carries the security headers, and Monaco works under the CSP", async ({
  page,
  request,
}) => {
  const env = await e2eDb().environment.findFirstOrThrow({
    where: { currentVersionId: { not: null }, origin: "SAMPLE" },
  });
  const response = await page.goto(`/environments/${env.id}/edit`);
  const headers = response?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("script-src 'self'");
  expect(headers).toMatchObject({
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  });
  // Monaco renders, tokenises and edits (its workers start) without a CSP violation: the fixture
  // fails the test on any console error, and Chromium reports each violation there.
  const lines = page.getByTestId("code-editor").locator(".view-lines");
  await expect(lines).toContainText("class ");
  await lines.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("# csp check");
  await expect(lines).toContainText("# csp check");
  const script = await page.evaluate(
    () =>
      document.querySelector<HTMLScriptElement>("script[src^='/_next/static/']")?.getAttribute("src") ?? "",
  );
  expect(script).not.toBe("");
  const asset = await request.get(script);
  expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
  for (const path of ["/api/environments", "/login", "/no-such-page"]) {
    expect((await request.get(path)).headers()["content-security-policy"], path).toContain(
      "default-src 'self'",
    );
  }
});

test("the public readiness probe does not tell anonymous callers why the database is down", async () => {
  const studio = await spawnStudio({
    env: { DATABASE_URL: "postgresql://postgres:not-the-password@127.0.0.1:1/envstudio" },
  });
  try {
    const res = await fetch(`${studio.base}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false });
  } finally {
    await studio.stop();
  }
});

test("an upload over the one import limit gets 413 naming it; one over Next's 10 MB default is read whole", async ({
  request,
}) => {
  const limit = 2 * 1024 * 1024;
  const studio = await spawnStudio({ env: { ENVSTUDIO_IMPORT_MAX_BYTES: String(limit) } });
  try {
    const form = new FormData();
    form.append("files", new Blob(["x".repeat(limit + 1)]), "env_metadata.json");
    const res = await fetch(`${studio.base}/api/imports`, { method: "POST", body: form });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /limited to 2 MiB per upload \(ENVSTUDIO_IMPORT_MAX_BYTES\)/,
    );
  } finally {
    await studio.stop();
  }
  // The main studio (default 200 MiB): 12 MB is parsed, not truncated into a 500.
  const big = JSON.stringify(
    Object.fromEntries(
      Array.from({ length: 12_000 }, (_, i) => [`e${i}`, { env_id: `e${i}`, pad: "a".repeat(1000) }]),
    ),
  );
  const reply = await request.post("/api/imports", {
    multipart: {
      files: { name: "env_metadata.json", mimeType: "application/json", buffer: Buffer.from(big) },
    },
  });
  expect(reply.status()).toBe(200);
  expect(await reply.json()).toMatchObject({ ok: false, error: { file: "env_metadata.json", record: "e0" } });
});

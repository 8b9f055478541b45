/**
 * What the studio believes about a connection, over real HTTP: the peer address the web server saw
 * (scripts/start-web.ts), forwarded headers only from ENVSTUDIO_TRUSTED_PROXIES. Sign-in throttling
 * counts that address; the anonymous local admin needs a connection from this machine (a remote
 * client naming `Host: localhost` is nobody); session cookies are Secure when the studio is
 * configured for HTTPS.
 */
import { FREE_FAILURES_PER_ADDRESS } from "../lib/auth/login-throttle";
import { E2E_ADMIN } from "../playwright.config";
import { actionResult, serverAction } from "./actions";
import { e2eDatabaseUrl, e2eDb, unique } from "./db";
import { expect, test } from "./fixtures";
import { callAction, networkAddress, rawRequest, sessionCookie } from "./raw-http";
import { spawnStudio, type SpawnedStudio } from "./spawn-studio";

test.setTimeout(180_000);

const WRONG = "not-the-password";

async function attemptAddress(email: string) {
  const rows = await e2eDb().loginAttempt.findMany({ where: { email }, select: { address: true } });
  return rows.map((r) => r.address);
}

test("sign-in throttling counts the connection's address, not an X-Forwarded-For the client writes", async ({
  baseURL,
}) => {
  const base = baseURL ?? "";
  const filler = `${unique("throttled")}@e2e.local`;
  const email = `${unique("xff")}@e2e.local`;
  // This machine's address has used up its free failures: the next attempt from here must wait,
  // whatever address it claims to forward for.
  await e2eDb().loginAttempt.createMany({
    data: Array.from({ length: FREE_FAILURES_PER_ADDRESS }, () => ({
      email: filler,
      address: "127.0.0.1",
      succeeded: false,
    })),
  });
  try {
    const claimed = await callAction(base, "loginAction", [{ email, password: WRONG }], {
      "x-forwarded-for": "203.0.113.77",
    });
    expect(actionResult(claimed.text)).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
  } finally {
    await e2eDb().loginAttempt.deleteMany({ where: { email: filler } });
  }
  const checked = await callAction(base, "loginAction", [{ email, password: WRONG }], {
    "x-forwarded-for": "203.0.113.78",
    "x-real-ip": "203.0.113.79",
  });
  expect(actionResult(checked.text)).toMatchObject({ ok: false, error: { code: "UNAUTHENTICATED" } });
  expect(await attemptAddress(email)).toEqual(["127.0.0.1"]);
  await e2eDb().loginAttempt.deleteMany({ where: { email } });
});

test.describe("behind a trusted proxy", () => {
  let studio: SpawnedStudio | undefined;
  test.beforeAll(async () => {
    studio = await spawnStudio({
      env: { DATABASE_URL: e2eDatabaseUrl(), ENVSTUDIO_TRUSTED_PROXIES: "127.0.0.1" },
    });
  });
  test.afterAll(() => studio?.stop());

  test("the client is the right-most X-Forwarded-For hop the proxy added, and its X-Forwarded-Proto counts", async ({
    baseURL,
  }) => {
    const email = `${unique("proxied")}@e2e.local`;
    // The client wrote 198.51.100.1 itself; the proxy (127.0.0.1, trusted) appended what it saw.
    await callAction(studio?.base ?? "", "loginAction", [{ email, password: WRONG }], {
      "x-forwarded-for": "198.51.100.1, 203.0.113.80",
    });
    expect(await attemptAddress(email)).toEqual(["203.0.113.80"]);
    await e2eDb().loginAttempt.deleteMany({ where: { email } });

    const admin = [{ email: E2E_ADMIN.email, password: E2E_ADMIN.password }];
    const viaTls = await callAction(studio?.base ?? "", "loginAction", admin, {
      "x-forwarded-proto": "https",
    });
    expect(sessionCookie(viaTls)).toMatch(/; Secure/i);
    // The main studio trusts no proxy: the same header from a client changes nothing.
    const forged = await callAction(baseURL ?? "", "loginAction", admin, { "x-forwarded-proto": "https" });
    expect(sessionCookie(forged)).toBeDefined();
    expect(sessionCookie(forged)).not.toMatch(/; Secure/i);
  });
});

test("with ENVSTUDIO_PUBLIC_URL on https the session cookie is Secure", async () => {
  const studio = await spawnStudio({
    env: { DATABASE_URL: e2eDatabaseUrl(), ENVSTUDIO_PUBLIC_URL: "https://studio.example.org" },
  });
  try {
    const reply = await callAction(studio.base, "loginAction", [
      { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
    ]);
    expect(sessionCookie(reply)).toMatch(/; Secure/i);
    expect(sessionCookie(reply)).toMatch(/; HttpOnly/i);
  } finally {
    await studio.stop();
  }
});

/** Every way a client from the network might pass for the local admin, each refused. */
async function expectNobodyFromTheNetwork(studio: SpawnedStudio) {
  const port = new URL(studio.base).port;
  const remote = `http://${networkAddress()}:${port}`;
  const asLocalhost = {
    host: `localhost:${port}`,
    "x-forwarded-for": "127.0.0.1",
    "x-envstudio-peer": "127.0.0.1",
  };
  const page = await rawRequest(remote, { method: "GET", path: "/users", headers: asLocalhost });
  expect(page.status).toBe(307);
  expect(page.headers.location).toContain("/login");
  expect(page.text).not.toContain(E2E_ADMIN.email);
  const email = `${unique("remote-admin")}@evil.example`;
  const action = serverAction("createUserAction");
  const created = await rawRequest(remote, {
    method: "POST",
    path: action.page,
    headers: { ...asLocalhost, "next-action": action.id, "content-type": "text/plain;charset=UTF-8" },
    body: JSON.stringify([{ email, name: "Mallory", role: "ADMIN", password: "mallory-password-1" }]),
  });
  expect(created.status).toBe(401);
  expect(await e2eDb().user.count({ where: { email } })).toBe(0);
}

test("a client from the network never acts as the local admin, whatever Host or forwarding headers it sends", async ({
  baseURL,
}) => {
  // Control: on the main studio (HOST=127.0.0.1) a connection from this machine is the local admin.
  const local = await rawRequest(baseURL ?? "", { method: "GET", path: "/users", headers: {} });
  expect(local.status).toBe(200);
  expect(local.text).toContain(E2E_ADMIN.email);
  // `next start -H 0.0.0.0` with HOST unset: HOST alone says "localhost, no login"; the connection
  // says otherwise, and this way of serving tells the app no peer at all.
  const bare = await spawnStudio({
    how: "next",
    host: "0.0.0.0",
    hostVariable: null,
    env: { DATABASE_URL: e2eDatabaseUrl() },
  });
  try {
    await expectNobodyFromTheNetwork(bare);
  } finally {
    await bare.stop();
  }
  // The studio's own server on every interface.
  const studio = await spawnStudio({ host: "0.0.0.0", env: { DATABASE_URL: e2eDatabaseUrl() } });
  try {
    await expectNobodyFromTheNetwork(studio);
  } finally {
    await studio.stop();
  }
});

/**
 * Shared test fixture: records every request of the browser context, aborts any that is not to
 * localhost, and fails the test if one was attempted or if the page logged an error.
 */
import { test as base, expect, type Request } from "@playwright/test";

const LOCAL_HOSTS = new Set(["127.0.0.1", "127.0.0.2", "localhost", "[::1]"]); // .2: the login-required studio (auth.spec.ts)

export function isLocal(url: string): boolean {
  const u = new URL(url);
  if (["data:", "blob:", "about:"].includes(u.protocol)) return true;
  return LOCAL_HOSTS.has(u.hostname);
}

type Guard = { requests: string[]; blocked: string[]; pageErrors: string[] };

export const test = base.extend<{ guard: Guard }>({
  guard: [
    async ({ context, page }, use) => {
      const guard: Guard = { requests: [], blocked: [], pageErrors: [] };
      context.on("request", (r: Request) => guard.requests.push(r.url()));
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (isLocal(url)) return route.continue();
        guard.blocked.push(url);
        return route.abort("internetdisconnected");
      });
      page.on("pageerror", (e) => guard.pageErrors.push(e.message));
      page.on("console", (m) => {
        if (m.type() === "error") guard.pageErrors.push(m.text());
      });
      await use(guard);
      expect(guard.blocked, "requests that tried to leave localhost").toEqual([]);
      expect(
        guard.requests.filter((u) => !isLocal(u)),
        "non-local requests",
      ).toEqual([]);
      expect(guard.pageErrors, "errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createUser } from "@/prisma/seed/factories";
import { FREE_FAILURES_PER_ACCOUNT, FREE_FAILURES_PER_ADDRESS } from "../login-throttle";
import { logIn } from "./log-in";

const t = useTestDatabase();
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

async function failTimes(n: number, email: string, address: string, now: Date) {
  for (let i = 0; i < n; i++)
    await expect(logIn(t.db, { email, password: `wrong ${i}` }, { address, now })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
}

describe("login throttling", () => {
  it("refuses the right password after repeated failures on the account, says when to retry, and records every checked attempt", async () => {
    const user = await createUser(t.db, { role: "REVIEWER" });
    const now = new Date("2026-01-01T10:00:00Z");
    await failTimes(FREE_FAILURES_PER_ACCOUNT, user.email, "10.0.0.1", now);
    // Even the right password, and from another address: the account itself waits.
    const refused = logIn(
      t.db,
      { email: user.email, password: user.password },
      { address: "10.0.0.99", now: at(now, 0.5) },
    );
    await expect(refused).rejects.toMatchObject({
      code: "RATE_LIMITED",
      retryable: true,
      message: expect.stringMatching(/Try again in 1 second/) as string,
    });
    // Waiting it out works; a refused attempt did not lengthen the wait.
    await expect(
      logIn(t.db, { email: user.email, password: user.password }, { address: "10.0.0.1", now: at(now, 2) }),
    ).resolves.toHaveProperty("token");
    const attempts = await t.db.loginAttempt.findMany({
      where: { email: user.email },
      orderBy: { createdAt: "asc" },
    });
    expect(attempts.map((a) => a.succeeded)).toEqual([
      ...Array<boolean>(FREE_FAILURES_PER_ACCOUNT).fill(false),
      true,
    ]);
    expect(attempts[0]?.address).toBe("10.0.0.1");
  });

  it("doubles the wait with each further failure", async () => {
    const user = await createUser(t.db, { role: "VIEWER" });
    const now = new Date("2026-01-02T10:00:00Z");
    await failTimes(FREE_FAILURES_PER_ACCOUNT, user.email, "10.0.1.1", now);
    await failTimes(1, user.email, "10.0.1.1", at(now, 1)); // allowed after the 1 s wait
    await expect(
      logIn(t.db, { email: user.email, password: "x" }, { address: "10.0.1.1", now: at(now, 2) }),
    ).rejects.toMatchObject({
      code: "RATE_LIMITED",
      details: { retryAfterSeconds: 1 },
    });
    await failTimes(1, user.email, "10.0.1.1", at(now, 3));
    await expect(
      logIn(t.db, { email: user.email, password: "x" }, { address: "10.0.1.1", now: at(now, 4) }),
    ).rejects.toMatchObject({ details: { retryAfterSeconds: 3 } });
  });

  it("throttles one client address guessing many accounts, including unknown ones", async () => {
    const now = new Date("2026-01-03T10:00:00Z");
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS; i++)
      await failTimes(1, `nobody-${i}@test.local`, "10.0.2.2", now);
    const victim = await createUser(t.db, { role: "ADMIN" });
    await expect(
      logIn(t.db, { email: victim.email, password: victim.password }, { address: "10.0.2.2", now }),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // Another address is not affected.
    await expect(
      logIn(t.db, { email: victim.email, password: victim.password }, { address: "10.0.2.3", now }),
    ).resolves.toHaveProperty("token");
  });

  it("serialises parallel guesses on one account, so they cannot all slip under the limit", async () => {
    const user = await createUser(t.db, { role: "VIEWER" });
    const now = new Date("2026-01-04T10:00:00Z");
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        logIn(t.db, { email: user.email, password: `guess ${i}` }, { address: "10.0.3.3", now }),
      ),
    );
    const codes = results.map((r) => (r.status === "rejected" ? (r.reason as { code: string }).code : "OK"));
    expect(codes.filter((c) => c === "UNAUTHENTICATED")).toHaveLength(FREE_FAILURES_PER_ACCOUNT);
    expect(codes.filter((c) => c === "RATE_LIMITED")).toHaveLength(12 - FREE_FAILURES_PER_ACCOUNT);
  });
});

/**
 * A claim names a queue item that exists: an unknown id is refused with NOT_FOUND and stores
 * nothing; a release of an unknown item says so too, while a claim on an item deleted since still
 * goes.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { createEnvironment, createTestProject, createUser } from "@/prisma/seed/factories";
import { REVIEW_KINDS } from "../review.schema";
import { claimItem, releaseClaim } from "./claims";

const t = useTestDatabase();

describe("review claims of unknown items", () => {
  it("refuses to claim or release an id that names no item, and writes no claim", async () => {
    const user = await createUser(t.db, { role: "REVIEWER" });
    const reviewer = { id: user.id, email: user.email, name: user.name, role: user.role };
    for (const kind of REVIEW_KINDS) {
      const item = { kind, id: "no-such-item" };
      await expect(claimItem(t.db, item, reviewer)).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: `There is no ${kind} with the id "no-such-item".`,
      });
      await expect(releaseClaim(t.db, item, reviewer)).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    expect(await t.db.reviewClaim.count()).toBe(0);
  });

  it("still releases a claim on an item deleted since it was claimed", async () => {
    const project = await createTestProject(t.db);
    const env = await createEnvironment(t.db, project.id, { status: "IN_REVIEW" });
    const user = await createUser(t.db, { role: "REVIEWER" });
    const reviewer = { id: user.id, email: user.email, name: user.name, role: user.role };
    const item = { kind: "environment" as const, id: env.id };
    expect(await claimItem(t.db, item, reviewer)).toMatchObject({ claimed: true });
    await t.db.environment.delete({ where: { id: env.id } });
    expect(await releaseClaim(t.db, item, reviewer)).toEqual({ released: 1 });
    expect(await t.db.reviewClaim.count({ where: { targetId: env.id } })).toBe(0);
  });
});

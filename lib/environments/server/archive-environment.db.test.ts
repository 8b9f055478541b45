import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/db";
import { actorOf, createEnvironment, createTestProject, createUser } from "@/prisma/seed/factories";
import { AppError } from "@/lib/core/errors";
import { findReviewQueue } from "@/lib/review/server/find-review-queue";
import { ListEnvironmentsQuerySchema } from "../environment.schema";
import { archiveEnvironment } from "./archive-environment";
import { findEnvironments } from "./find-environments";

const t = useTestDatabase();
const query = (q: Record<string, unknown> = {}) => ListEnvironmentsQuerySchema.parse(q);
const inReview = (projectId: string, name: string, slug: string) =>
  createEnvironment(t.db, projectId, { name, slug, status: "IN_REVIEW" });

describe("archiving an environment", () => {
  it("hides it from the list and the queue unless asked, audits both ways, and deletes nothing", async () => {
    const project = await createTestProject(t.db);
    const user = await createUser(t.db);
    const actor = actorOf(user);
    const kept = await inReview(project.id, "Kept desk", "kept");
    const failed = await inReview(project.id, "Failed desk", "failed");

    await archiveEnvironment(
      t.db,
      project.id,
      { environmentId: failed.id, archived: true, reason: "broken" },
      actor,
    );
    // Archiving twice records one decision.
    await archiveEnvironment(
      t.db,
      project.id,
      { environmentId: failed.id, archived: true, reason: "" },
      actor,
    );

    const listed = await findEnvironments(t.db, project.id, query());
    expect(listed.items.map((e) => e.slug)).toEqual(["kept"]);
    const all = await findEnvironments(t.db, project.id, query({ archived: "1" }));
    expect(all.items.map((e) => [e.slug, e.archivedAt !== null]).sort()).toEqual([
      ["failed", true],
      ["kept", false],
    ]);
    const queue = await findReviewQueue(t.db, project.id, { kind: "environment" }, user);
    expect(queue.items.map((i) => i.id)).toEqual([kept.id]);

    await archiveEnvironment(
      t.db,
      project.id,
      { environmentId: failed.id, archived: false, reason: "" },
      actor,
    );
    expect((await findEnvironments(t.db, project.id, query())).total).toBe(2);
    const log = await t.db.reviewDecision.findMany({
      where: { targetType: "ENVIRONMENT", targetId: failed.id },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((d) => [d.decision, d.reason, d.actorId])).toEqual([
      ["ARCHIVE", "broken", user.id],
      ["UNARCHIVE", "", user.id],
    ]);
  });

  it("refuses an environment of another project", async () => {
    const mine = await createTestProject(t.db, "mine");
    const theirs = await createTestProject(t.db, "theirs");
    const env = await createEnvironment(t.db, theirs.id, { name: "Theirs", slug: "theirs" });
    const actor = actorOf(await createUser(t.db));
    await expect(
      archiveEnvironment(t.db, mine.id, { environmentId: env.id, archived: true, reason: "" }, actor),
    ).rejects.toBeInstanceOf(AppError);
  });
});

describe("searching the review queue", () => {
  it("matches environment names and env_ids, and names a shared name's env_id", async () => {
    const project = await createTestProject(t.db, "search");
    const user = await createUser(t.db);
    const a = await inReview(project.id, "Twin desk", "twin-a");
    const b = await inReview(project.id, "Twin desk", "twin-b");
    await inReview(project.id, "Other", "other");
    const byName = await findReviewQueue(t.db, project.id, { kind: "environment", q: "twin D" }, user);
    expect(byName.items.map((i) => i.title).sort()).toEqual(["Twin desk (twin-a)", "Twin desk (twin-b)"]);
    const byId = await findReviewQueue(t.db, project.id, { q: "twin-b" }, user);
    expect(byId.items.map((i) => [i.id, i.title])).toEqual([[b.id, "Twin desk"]]);
    expect(byId.counts.environment).toBe(1);
    expect(a.id).not.toBe(b.id);
  });
});

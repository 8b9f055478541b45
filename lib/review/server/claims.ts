import "server-only";
/**
 * Review claims keep two reviewers off the same queue item. A claim is taken atomically by one
 * INSERT … ON CONFLICT DO UPDATE … WHERE (mine or expired): under concurrency exactly one
 * reviewer's statement returns a row. Claims expire (CLAIM_TTL_MS) so an abandoned tab frees the
 * item. Queue items are keyed by what the queue lists: environment, scenario, trajectory or repair proposal id.
 */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { CLAIM_TTL_MS, type ClaimInput, type ReviewKind, TARGET_OF } from "../review.schema";

const TARGET_EXISTS: Record<ReviewKind, (db: Db, id: string) => Promise<number>> = {
  environment: (db, id) => db.environment.count({ where: { id } }),
  scenario: (db, id) => db.scenario.count({ where: { id } }),
  trajectory: (db, id) => db.trajectory.count({ where: { id } }),
  repair: (db, id) => db.repairProposal.count({ where: { id } }),
};

/** A claim names a queue item that exists: an unknown id is refused, never stored. */
async function assertTargetExists(db: Db, input: ClaimInput) {
  if ((await TARGET_EXISTS[input.kind](db, input.id)) === 0)
    throw new AppError("NOT_FOUND", `There is no ${input.kind} with the id "${input.id}".`);
}

export type ClaimResult = { claimed: true; expiresAt: string } | { claimed: false; heldBy: string };

export async function claimItem(
  db: Db,
  input: ClaimInput,
  actor: SessionUser,
  now = new Date(),
): Promise<ClaimResult> {
  if (!actor.id) throw new AppError("INVALID_INPUT", "Sign in to claim review items.");
  await assertTargetExists(db, input);
  const expiresAt = new Date(now.getTime() + CLAIM_TTL_MS);
  const rows = await db.$queryRaw<{ userId: string }[]>`
    INSERT INTO "ReviewClaim" ("targetType", "targetId", "userId", "expiresAt")
    VALUES (${TARGET_OF[input.kind]}::"ReviewTarget", ${input.id}, ${actor.id}, ${expiresAt})
    ON CONFLICT ("targetType", "targetId") DO UPDATE SET "userId" = EXCLUDED."userId", "expiresAt" = EXCLUDED."expiresAt"
    WHERE "ReviewClaim"."userId" = EXCLUDED."userId" OR "ReviewClaim"."expiresAt" < ${now}
    RETURNING "userId"`;
  if (rows.length) return { claimed: true, expiresAt: expiresAt.toISOString() };
  const holder = await db.reviewClaim.findUnique({
    where: { targetType_targetId: { targetType: TARGET_OF[input.kind], targetId: input.id } },
    include: { user: { select: { email: true } } },
  });
  return { claimed: false, heldBy: holder?.user.email ?? "another reviewer" };
}

export async function releaseClaim(db: Db, input: ClaimInput, actor: SessionUser) {
  if (!actor.id) return { released: 0 };
  const { count } = await db.reviewClaim.deleteMany({
    where: { targetType: TARGET_OF[input.kind], targetId: input.id, userId: actor.id },
  });
  // Released first: a claim on an item deleted meanwhile still goes.
  if (count === 0) await assertTargetExists(db, input);
  return { released: count };
}

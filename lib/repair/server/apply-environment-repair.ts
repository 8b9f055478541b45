import "server-only";
/**
 * Accepting a PROVEN environment-code repair, inside decideItem's transaction: a compare-and-set
 * on the environment version it was proposed for. Under the environment's row lock its head must
 * still be that version, else CONFLICT (not retryable) and nothing changes. It then saves the
 * changed code as a new immutable version exactly as an edit does (author: the model; message:
 * what it fixed; `producedBy` `repair:<model>`; the tools the sandbox extracted when it was
 * proposed): the scenarios' proofs go STALE, and the environment waits in the review queue
 * (IN_REVIEW; an accepted one keeps its accepted version) — the new version is not accepted by this.
 */
import { AppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import { writeEnvironmentVersion } from "@/lib/environments/server/write-environment-version";
import { z } from "zod";
import { EnvironmentChangeSchema } from "../repair.schema";

type Tx = Prisma.TransactionClient;

const moved = (proposedFor: number, head: number | null) =>
  new AppError(
    "CONFLICT",
    `The environment's code changed since this repair was proposed (it was made for version ${proposedFor}; version ${head ?? "?"} is current now): it no longer applies. Repair the current version instead.`,
    { retryable: false },
  );

export async function applyEnvironmentRepair(
  tx: Tx,
  proposal: {
    id: string;
    projectId: string;
    environmentId: string;
    environmentVersionId: string;
    changes: unknown;
    model: string;
    summary: string;
  },
  actor: SessionUser,
) {
  const [change] = z.array(EnvironmentChangeSchema).parse(proposal.changes);
  if (!change) throw new AppError("INVALID_INPUT", "This proposal changes no code.");
  await tx.$queryRaw`SELECT "id" FROM "Environment" WHERE "id" = ${proposal.environmentId} FOR UPDATE`;
  const env = await tx.environment.findUnique({
    where: { id: proposal.environmentId },
    include: { currentVersion: { select: { version: true } } },
  });
  if (!env) throw new AppError("NOT_FOUND", "The environment of this repair was deleted.");
  const base = await tx.environmentVersion.findUniqueOrThrow({
    where: { id: proposal.environmentVersionId },
  });
  if (env.currentVersionId !== base.id) throw moved(base.version, env.currentVersion?.version ?? null);
  const message = `Repair by ${proposal.model}: ${proposal.summary}`.slice(0, 500);
  const producedBy = `repair:${proposal.model}`;
  const created = await writeEnvironmentVersion(
    tx,
    base,
    {
      projectId: proposal.projectId,
      source: change.after,
      tools: change.tools,
      producedBy,
      authorId: null,
      message,
      // The repaired code waits for review like an edit, and one the quality check failed is
      // reviewable again.
      reopenFailed: true,
      audit: { producedBy, repairProposalId: proposal.id },
      headMoved: () => moved(base.version, null),
    },
    actor,
  );
  return { versionId: created.id, version: created.version };
}

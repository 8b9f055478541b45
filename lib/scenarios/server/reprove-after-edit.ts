import "server-only";
/**
 * After a reviewer saves environment code or a validator: re-run the proof of every scenario whose
 * latest proof was made with other versions. The save has already committed, and marked those
 * proofs STALE in its own transaction; a failure to enqueue is reported, not thrown, and the
 * scenarios stay STALE so the environment page's "Prove validators" can retry.
 */
import type { Db } from "@/lib/db";
import { sendJob, type JobSender } from "@/lib/jobs/server/send-job";
import { requeueStaleProofs } from "./mark-proofs-stale";

export type ReproveResult = { proofRunId: string | null; error?: string };

export async function reproveAfterEdit(
  db: Db,
  input: { environmentId: string; actorId: string | null },
  send: JobSender = sendJob,
): Promise<ReproveResult> {
  const env = await db.environment.findUnique({
    where: { id: input.environmentId },
    select: { projectId: true },
  });
  if (!env) return { proofRunId: null };
  try {
    const proofRunId = await requeueStaleProofs(db, send, {
      projectId: env.projectId,
      environmentId: input.environmentId,
      createdById: input.actorId,
    });
    return { proofRunId };
  } catch (error) {
    return {
      proofRunId: null,
      error: `Saved, but the proof could not be re-queued: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

import "server-only";
/**
 * Saves edited environment code as a new immutable EnvironmentVersion (optimistic locking).
 *
 * The edit carries the version it started from. If the environment's head is no longer that
 * version, the save is refused with CONFLICT and the head's source, never written over. The check
 * is a compare-and-set inside the transaction (UPDATE … WHERE currentVersionId = base), so two
 * concurrent saves on the same base cannot both win, whatever the timing.
 */
import { AppError } from "@/lib/core/errors";
import type { Db, Prisma } from "@/lib/db";
import type { SessionUser } from "@/lib/auth/auth.schema";
import type { Analysis, SandboxError } from "@/lib/sandbox";
import type { Result } from "@/lib/core/result";
import type { HeadConflict, SaveEnvironmentVersionInput } from "../edit.schema";
import { analysisMarkers, hasBlockingMarkers } from "../markers";
import { writeEnvironmentVersion } from "./write-environment-version";

export type AnalyzeDeps = {
  analyze(request: { source: string; className: string }): Promise<Result<Analysis, SandboxError>>;
};

type HeadRow = {
  id: string;
  version: number;
  source: string;
  authorId: string | null;
  producedBy: string;
  message: string;
  createdAt: Date;
};

async function headConflict(db: Prisma.TransactionClient | Db, headId: string | null): Promise<AppError> {
  const head: HeadRow | null = headId
    ? await db.environmentVersion.findUnique({ where: { id: headId } })
    : null;
  const author = head?.authorId
    ? await db.user.findUnique({ where: { id: head.authorId }, select: { email: true } })
    : null;
  const details: HeadConflict | undefined = head
    ? {
        headVersionId: head.id,
        headVersion: head.version,
        headSource: head.source,
        headAuthor: author?.email ?? head.producedBy,
        headMessage: head.message,
        headCreatedAt: head.createdAt.toISOString(),
      }
    : undefined;
  return new AppError(
    "CONFLICT",
    `Not saved: version ${head?.version ?? "?"} by ${details?.headAuthor ?? "someone"} replaced the version you started from. Compare with it below, then re-apply your edit on top of it.`,
    { details },
  );
}

/** Sandbox analysis as markers; throws INVALID_INPUT (with the markers) when the code cannot be saved. */
export async function analyzeOrThrow(deps: AnalyzeDeps, source: string, className: string) {
  const analysis = await deps.analyze({ source, className });
  if (!analysis.ok)
    throw new AppError("UNAVAILABLE", `The sandbox could not analyse the code: ${analysis.error.message}`, {
      retryable: analysis.error.retryable,
    });
  const markers = analysisMarkers(analysis.value, className);
  return { analysis: analysis.value, markers };
}

export async function saveEnvironmentVersion(
  db: Db,
  input: SaveEnvironmentVersionInput,
  actor: SessionUser,
  deps: AnalyzeDeps,
) {
  const env = await db.environment.findUnique({
    where: { id: input.environmentId },
    include: { currentVersion: true },
  });
  if (!env?.currentVersion) throw new AppError("NOT_FOUND", "Environment (or its code) was not found.");
  if (env.currentVersionId !== input.baseVersionId) throw await headConflict(db, env.currentVersionId);
  const base = env.currentVersion;
  if (base.source === input.source)
    throw new AppError("INVALID_INPUT", "Nothing to save: the code is unchanged.");
  if (
    input.mergeBaseVersionId &&
    !(await db.environmentVersion.findFirst({
      where: { id: input.mergeBaseVersionId, environmentId: env.id },
      select: { id: true },
    }))
  ) {
    throw new AppError("INVALID_INPUT", "The merge names a version of another environment.");
  }
  // Analysis runs in the sandbox process before the transaction (it may take a while).
  const { analysis, markers } = await analyzeOrThrow(deps, input.source, base.className);
  if (hasBlockingMarkers(markers))
    throw new AppError("INVALID_INPUT", "Not saved: fix the errors marked in the code first.", {
      details: { markers },
    });

  try {
    return await writeVersion(db, env, base, input, actor, analysis.tools, markers);
  } catch (error) {
    // A concurrent save on the same base took the next version number first.
    if (isUniqueViolation(error))
      throw await headConflict(
        db,
        (await db.environment.findUnique({ where: { id: env.id } }))?.currentVersionId ?? null,
      );
    throw error;
  }
}

export const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && error.code === "P2002";

type Base = Prisma.EnvironmentVersionGetPayload<object>;

async function writeVersion(
  db: Db,
  env: { id: string; projectId: string },
  base: Base,
  input: SaveEnvironmentVersionInput,
  actor: SessionUser,
  tools: Analysis["tools"],
  markers: ReturnType<typeof analysisMarkers>,
) {
  return db.$transaction(async (tx) => {
    const created = await writeEnvironmentVersion(
      tx,
      base,
      {
        projectId: env.projectId,
        source: input.source,
        tools,
        producedBy: "user",
        authorId: actor.id,
        message: input.message,
        mergedParentVersionId: input.mergeBaseVersionId ?? null,
        audit: input.mergeBaseVersionId ? { mergedFromVersionId: input.mergeBaseVersionId } : {},
        headMoved: async () =>
          headConflict(
            tx,
            (await tx.environment.findUnique({ where: { id: env.id } }))?.currentVersionId ?? null,
          ),
      },
      actor,
    );
    return { versionId: created.id, version: created.version, tools, markers };
  });
}

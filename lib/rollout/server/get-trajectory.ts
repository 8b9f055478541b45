import "server-only";
/** The trajectory viewer's read: the stored trajectory with its scenario's checklist for the per-check breakdown. */
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";

export async function getTrajectoryOrThrow(db: Db, projectId: string, id: string) {
  const trajectory = await db.trajectory.findFirst({
    where: { id, scenario: { environment: { projectId } } },
    include: {
      scenario: {
        select: {
          id: true,
          externalId: true,
          task: true,
          validators: { orderBy: { position: "asc" }, select: { position: true, checkItem: true } },
        },
      },
    },
  });
  if (!trajectory) throw new AppError("NOT_FOUND", `Trajectory "${id}" was not found.`);
  return trajectory;
}

import "server-only";
import { AppError } from "@/lib/core/errors";
import type { Db } from "@/lib/db";
import { type AnalyzeDeps, analyzeOrThrow } from "./save-environment-version";

/** Live feedback while editing: markers and the tools the code would expose (nothing is saved). */
export async function analyzeEnvironmentSource(
  db: Db,
  input: { environmentId: string; source: string },
  deps: AnalyzeDeps,
) {
  const env = await db.environment.findUnique({
    where: { id: input.environmentId },
    select: { currentVersion: { select: { className: true } } },
  });
  if (!env?.currentVersion) throw new AppError("NOT_FOUND", "Environment was not found.");
  const { analysis, markers } = await analyzeOrThrow(deps, input.source, env.currentVersion.className);
  return { markers, tools: analysis.tools };
}

import "server-only";
/** Dataset versions the corpus map can be scoped to, newest first (the scope picker). */
import type { Db } from "@/lib/db";

const CHOICES = 200;

export async function findScopeChoices(db: Db, projectId: string) {
  const versions = await db.datasetVersion.findMany({
    where: { dataset: { projectId } },
    orderBy: { createdAt: "desc" },
    take: CHOICES,
    select: { id: true, version: true, dataset: { select: { name: true } } },
  });
  return versions.map((v) => ({ id: v.id, label: `${v.dataset.name} v${v.version}` }));
}

import "server-only";
import type { Db } from "@/lib/db";

export const DEFAULT_PROJECT_SLUG = "default";

/** The studio works in one project for now; it is created on first use. */
export async function getDefaultProject(db: Db) {
  return db.project.upsert({
    where: { slug: DEFAULT_PROJECT_SLUG },
    update: {},
    create: { slug: DEFAULT_PROJECT_SLUG, name: "Default project" },
  });
}

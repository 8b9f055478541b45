/**
 * The database the CLI works on, found the way `npm start` finds it (scripts/start.ts →
 * resolveDatabaseUrl): DATABASE_URL when set, otherwise the embedded PostgreSQL of
 * ENVSTUDIO_DATA_DIR (default `.data` in the project folder, where `npm start` keeps it) on
 * ENVSTUDIO_PG_PORT. A server that is already running (a studio started with `npm start`) is
 * joined and left running; one the CLI had to start is migrated first and stopped afterwards.
 */
import path from "node:path";
import type { Db } from "../db";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type CliProject = { db: Db; projectId: string; close: () => Promise<void> };

export async function openProject(): Promise<CliProject> {
  const [{ createDb }, { getDefaultProject }, { resolveDatabaseUrl }, { deployMigrations }] = await Promise.all([
    import("../db"), import("../projects/server/get-default-project"), import("../db/server/resolve-database"), import("../db/migrate"),
  ]);
  // npm start runs in the project folder: a relative data directory is relative to it.
  const dataDir = path.resolve(ROOT, process.env.ENVSTUDIO_DATA_DIR ?? ".data");
  const database = await resolveDatabaseUrl({ migrate: false, dataDir });
  const ownServer = database.embedded && database.startedByUs;
  if (ownServer) await deployMigrations(database.url);
  const db = createDb(database.url, 4);
  const close = async () => {
    await db.$disconnect();
    if (ownServer) await database.stop();
  };
  try {
    const project = await getDefaultProject(db);
    return { db, projectId: project.id, close };
  } catch (error) {
    await close();
    throw error;
  }
}

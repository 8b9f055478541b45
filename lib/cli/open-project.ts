/**
 * The database the CLI works on, found the way `npm start` finds it (scripts/start.ts →
 * resolveDatabaseUrl): DATABASE_URL when set, otherwise the embedded PostgreSQL of
 * ENVSTUDIO_DATA_DIR (default `.data` in the project folder, where `npm start` keeps it) on
 * ENVSTUDIO_PG_PORT. A server that is already running (a studio started with `npm start`) is
 * joined; one the CLI had to start is migrated first. `close` is this process leaving the server
 * (resolveDatabaseUrl's `stop`): it stops only a server the CLI started and nobody else uses
 * (a studio started meanwhile keeps it running; see lib/db/server/embedded-users.ts).
 */
import path from "node:path";
import type { Db } from "../db";
import { readEnv } from "../env";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** npm start runs in the project folder: a relative data directory is relative to it, not to the cwd. */
export const cliDataDir = () => path.resolve(ROOT, readEnv("ENVSTUDIO_DATA_DIR"));

export type CliProject = { db: Db; projectId: string; close: () => Promise<void> };

export async function openProject(): Promise<CliProject> {
  const [{ createDb }, { getDefaultProject }, { resolveDatabaseUrl }, { deployMigrations }] =
    await Promise.all([
      import("../db"),
      import("../projects/server/get-default-project"),
      import("../db/server/resolve-database"),
      import("../db/migrate"),
    ]);
  const database = await resolveDatabaseUrl({ migrate: false, dataDir: cliDataDir() });
  const db = createDb(database.url, 4);
  const close = async () => {
    await db.$disconnect();
    await database.stop();
  };
  try {
    if (database.embedded && database.startedByUs) await deployMigrations(database.url);
    const project = await getDefaultProject(db);
    return { db, projectId: project.id, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A dataset version's scenarios for `serve` and `mcp`, read once: the catalog is then in memory,
 * and the server or the episode needs no database.
 */
export async function loadServedCatalog(dataset: string, version: number | undefined) {
  const { loadCatalog } = await import("../envserver/server/load-catalog");
  const { db, projectId, close } = await openProject();
  try {
    return await loadCatalog(db, projectId, dataset, version);
  } finally {
    await close();
  }
}

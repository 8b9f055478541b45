import "server-only";
/**
 * Where the database is: DATABASE_URL when set, otherwise an embedded PostgreSQL in
 * ENVSTUDIO_DATA_DIR. Either way the server is checked up front so a bad URL, an unreachable host
 * or a wrong password gives one clear message naming host/port/database (never the password).
 * `stop` is this process leaving: it stops an embedded server only if this process started it and
 * no other process using it is still alive (see embedded-users.ts); a DATABASE_URL server is never stopped.
 */
import pg from "pg";
import { describeDatabase } from "../database-url";
import { deployMigrations } from "../migrate";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { registerEmbeddedUser, releaseEmbeddedUser } from "./embedded-users";
import { readEnv } from "../../env";

export class DatabaseConfigError extends Error {
  override name = "DatabaseConfigError";
}

/** startedByUs: the embedded server was not running before (false when joining `npm start`'s). */
export type ResolvedDatabase = {
  url: string;
  embedded: boolean;
  startedByUs: boolean;
  stop: () => Promise<void>;
  applied: string[];
};

function explainConnectError(url: string, error: unknown): string {
  const e = error as { code?: string; message?: string };
  const where = describeDatabase(url);
  switch (e.code) {
    case "ECONNREFUSED":
      return `Cannot reach PostgreSQL at ${where}: connection refused. Is the server running, and is DATABASE_URL right?`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `Cannot reach PostgreSQL at ${where}: unknown host.`;
    case "ETIMEDOUT":
      return `Cannot reach PostgreSQL at ${where}: connection timed out.`;
    case "28P01":
    case "28000":
      return `PostgreSQL at ${where} refused the credentials in DATABASE_URL.`;
    case "3D000":
      return `PostgreSQL at ${where}: the database does not exist. Create it first (createdb).`;
    default:
      return `Cannot use PostgreSQL at ${where}: ${e.message ?? String(error)}`;
  }
}

export async function checkConnection(url: string, timeoutMs = 5000): Promise<void> {
  let client: pg.Client;
  try {
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  } catch (error) {
    throw new DatabaseConfigError(explainConnectError(url, error));
  }
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    throw new DatabaseConfigError(explainConnectError(url, error));
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function resolveDatabaseUrl(opts: {
  migrate: boolean;
  dataDir?: string;
}): Promise<ResolvedDatabase> {
  const configured = readEnv("DATABASE_URL");
  let url: string;
  let embedded = false;
  let startedByUs = false;
  let stop = async () => {};
  if (configured) {
    if (!/^postgres(ql)?:\/\//.test(configured)) {
      throw new DatabaseConfigError(
        "DATABASE_URL must be a postgresql:// URL (or unset it to use the embedded database).",
      );
    }
    url = configured;
    await checkConnection(url);
  } else {
    let port: number;
    try {
      port = readEnv("ENVSTUDIO_PG_PORT");
    } catch (error) {
      throw new DatabaseConfigError(error instanceof Error ? error.message : String(error));
    }
    const dataDir = opts.dataDir ?? readEnv("ENVSTUDIO_DATA_DIR");
    try {
      const pgServer = await startEmbeddedPostgres({ dataDir, port, database: "envstudio" });
      registerEmbeddedUser(dataDir);
      url = pgServer.url;
      stop = async () => {
        const others = releaseEmbeddedUser(dataDir);
        if (pgServer.startedByUs && others.length === 0) await pgServer.stop();
      };
      startedByUs = pgServer.startedByUs;
    } catch (error) {
      throw new DatabaseConfigError(error instanceof Error ? error.message : String(error));
    }
    embedded = true;
  }
  const applied = opts.migrate ? await deployMigrations(url) : [];
  return { url, embedded, startedByUs, stop, applied };
}

/**
 * Parsing and describing DATABASE_URL. Descriptions never include the password: they are what
 * users see when the database cannot be reached.
 */
export type PgConfig = { host: string; port: number; user: string; password: string; database: string };

export function pgConfigFromUrl(url: string): PgConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `DATABASE_URL is not a valid URL (expected postgresql://user:password@host:port/database)`,
    );
  }
  if (parsed.protocol !== "postgresql:" && parsed.protocol !== "postgres:") {
    throw new Error(`DATABASE_URL must start with postgresql:// (got ${parsed.protocol}//…)`);
  }
  // Discrete fields, not connectionString: pg lets a connectionString silently win over an
  // overridden `database` (which the migration tool needs for its shadow database).
  return {
    host: parsed.hostname || "localhost",
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username || process.env.USER || "postgres"),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)) || "postgres",
  };
}

/** "host:port/database as user" — safe to print. */
export function describeDatabase(url: string): string {
  try {
    const c = pgConfigFromUrl(url);
    return `${c.host}:${c.port}/${c.database} as ${c.user}`;
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

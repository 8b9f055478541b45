/**
 * DB test tier, once per run: find a PostgreSQL server (TEST_DATABASE_URL, else 127.0.0.1:5432
 * with trust auth as on CI, else an embedded one), build a migrated template database, and hand
 * its name to the test files, which clone it per file (CREATE DATABASE … TEMPLATE, ~50 ms).
 */
import pg from "pg";
import type { TestProject } from "vitest/node";
import { withDatabase } from "../lib/db/database-url";
import { deployMigrations } from "../lib/db/migrate";
import { startEmbeddedPostgres } from "../lib/db/server/embedded-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    dbAdminUrl: string;
    dbTemplate: string;
  }
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminUrl(): Promise<{ url: string; stop: () => Promise<void> }> {
  const candidates = [process.env.TEST_DATABASE_URL, "postgresql://postgres@127.0.0.1:5432/postgres"].filter(
    Boolean,
  ) as string[];
  for (const url of candidates) if (await reachable(url)) return { url, stop: async () => {} };
  const embedded = await startEmbeddedPostgres({ dataDir: ".data-test", port: 5434, database: "postgres" });
  return { url: embedded.url, stop: embedded.stop };
}

export default async function setup(project: TestProject) {
  const admin = await adminUrl();
  const prefix = `envstudio_t${process.pid}`;
  const template = `${prefix}_template`;
  const client = new pg.Client({ connectionString: admin.url });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${template}"`);
  await client.query(`CREATE DATABASE "${template}"`);
  await deployMigrations(withDatabase(admin.url, template));
  project.provide("dbAdminUrl", admin.url);
  project.provide("dbTemplate", template);
  return async () => {
    const left = await client.query<{ datname: string }>(
      "select datname from pg_database where datname like $1",
      [`${prefix}_%`],
    );
    for (const { datname } of left.rows)
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
    await admin.stop();
  };
}

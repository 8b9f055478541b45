/**
 * Per-test-file database: a clone of the migrated template. Tests inside a file isolate further by
 * creating their own project (prisma/seed/factories.ts) rather than truncating tables.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createDb, type Db } from "../lib/db";
import { withDatabase } from "../lib/db/database-url";

export type TestDb = { db: Db; url: string };

export async function createTestDatabase(): Promise<TestDb & { drop: () => Promise<void> }> {
  const adminUrl = inject("dbAdminUrl");
  const template = inject("dbTemplate");
  const name = `${template.replace(/_template$/, "")}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const db = createDb(url, 4);
  return {
    db,
    url,
    drop: async () => {
      await db.$disconnect();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Registers beforeAll/afterAll hooks and returns a handle filled in before the tests run. */
export function useTestDatabase(): TestDb {
  const handle = {} as TestDb;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await createTestDatabase();
    handle.db = created.db;
    handle.url = created.url;
    drop = created.drop;
  });
  afterAll(async () => {
    await drop?.();
  });
  return handle;
}

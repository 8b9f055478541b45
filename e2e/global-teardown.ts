/**
 * The studio's embedded PostgreSQL is a pg_ctl daemon that outlives a killed Node process (by
 * design: data survives crashes). Playwright kills its webServer, so stop the server here: a later
 * run, or another checkout, must not find the port taken.
 */
import { stopEmbeddedPostgres } from "../lib/db/server/embedded-postgres";
import { E2E_DATA_DIR } from "../playwright.config";

export default async function globalTeardown(): Promise<void> {
  await stopEmbeddedPostgres(E2E_DATA_DIR);
}

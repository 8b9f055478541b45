import type pg from "pg";

/**
 * Resolves once another backend of this database waits on a lock: the statement under test is
 * blocked by the transaction `client` holds open, so committing it now reproduces the race.
 */
export async function someoneWaitsOnALock(
  client: pg.Client,
  what = "the statement under test",
): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
    );
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${what} never waited on the held transaction`);
}

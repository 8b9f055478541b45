/**
 * What "changed nothing" means in the browser tier: for every table the studio owns (the public
 * schema; pg-boss keeps its own), the row count and a digest of every row's contents — an UPDATE
 * changes the digest as surely as an INSERT changes the count. Setting is left out: the running
 * worker writes its heartbeat there on its own.
 */
import { e2eDb } from "./db";

const LEFT_OUT = new Set(["_prisma_migrations", "Setting"]);

export async function dbState(): Promise<Record<string, string>> {
  const tables = await e2eDb().$queryRaw<
    { name: string }[]
  >`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`;
  const state: Record<string, string> = {};
  for (const { name } of tables.filter((t) => !LEFT_OUT.has(t.name))) {
    const [row] = await e2eDb().$queryRawUnsafe<{ state: string }[]>(
      `select count(*) || ' rows ' || coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as state from "${name}" t`,
    );
    state[name] = row?.state ?? "?";
  }
  return state;
}

/**
 * The state once nothing moves any more (runs that earlier specs started may still be finishing):
 * two reads a second apart that agree.
 */
export async function settledDbState(timeoutMs = 120_000): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let last = await dbState();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await dbState();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    if (Date.now() > deadline)
      throw new Error("the database kept changing; something runs in the background");
    last = next;
  }
}

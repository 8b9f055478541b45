/**
 * `npm run db:migrate -- <name>` | `db:deploy` | `db:diff` | `db:status` — offline migrations
 * (see lib/db/migrate.ts). Uses DATABASE_URL, or the embedded Postgres when it is unset.
 */
import { createMigration, deployMigrations, diffMigrations, migrationStatus } from "../lib/db/migrate";
import { resolveDatabaseUrl } from "../lib/db/server/resolve-database";

const [cmd, name] = process.argv.slice(2);
const { url, stop } = await resolveDatabaseUrl({ migrate: false });
try {
  if (cmd === "deploy") {
    console.log(`applied: ${JSON.stringify(await deployMigrations(url))}`);
  } else if (cmd === "dev") {
    if (!name) throw new Error("usage: npm run db:migrate -- <migration_name>");
    const created = await createMigration(url, name);
    console.log(created ? `created and applied ${created}` : "schema in sync, no migration created");
  } else if (cmd === "diff") {
    const sql = await diffMigrations(url);
    if (sql) {
      process.stdout.write(sql);
      process.exitCode = 2;
    } else console.log("migrations are in sync with prisma/schema.prisma");
  } else if (cmd === "status") {
    console.log(JSON.stringify(await migrationStatus(url), null, 1));
  } else {
    throw new Error("usage: tsx scripts/db.ts deploy | dev <name> | diff | status");
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await stop();
}

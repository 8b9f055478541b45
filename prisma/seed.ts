/** `npm run db:seed`: writes the sample environments into DATABASE_URL (or the embedded database). */
import { createDb } from "../lib/db";
import { resolveDatabaseUrl } from "../lib/db/server/resolve-database";
import { seedDatabase } from "./seed/run-seed";
import { sandboxToolsFor } from "./seed/sandbox-tools";

const database = await resolveDatabaseUrl({ migrate: true });
const db = createDb(database.url);
const release = await sandboxToolsFor();
try {
  const created = await seedDatabase(db, release.toolsFor);
  console.log(created.length ? `seeded: ${created.join(", ")}` : "samples already present");
} finally {
  await release.close();
  await db.$disconnect();
  await database.stop();
}

/**
 * TEST ONLY. The environment server in its own process, serving the counter dataset, so a test can
 * attack or kill it and then check what survived. Prints `{"port": N}` once listening. With
 * JOURNAL_DATABASE_URL it records its episodes in that database's journal, as a replica does.
 * Usage: tsx tests/child/env-server.ts
 */
import { createDb } from "@/lib/db";
import { createPgEpisodeJournal } from "@/lib/envserver/server/pg-episode-journal";
import { startEnvServer } from "@/lib/envserver/start-server";
import { counterCatalog, loopbackOptions } from "@/lib/envserver/tests/harness";
import { createSandboxRunner } from "@/lib/sandbox";

const sandbox = createSandboxRunner({ poolSize: 2 });
const journalUrl = process.env.JOURNAL_DATABASE_URL;
const journal = journalUrl ? createPgEpisodeJournal(createDb(journalUrl, 2)) : undefined;
const server = await startEnvServer(counterCatalog(), sandbox, loopbackOptions({ journal }));
console.log(JSON.stringify({ port: server.port }));
process.once(
  "SIGTERM",
  () =>
    void server
      .stop()
      .then(() => sandbox.close())
      .then(() => process.exit(0)),
);

/**
 * TEST ONLY. The environment server in its own process, serving the counter dataset, so a test can
 * attack or kill it and then check what survived. Prints `{"port": N}` once listening. With
 * JOURNAL_DATABASE_URL it records its episodes in that database's journal, as a replica does; with
 * CHILD_MAX_SESSIONS it hosts that many sessions on shared workers, as `envstudio serve` does.
 * Usage: tsx tests/child/env-server.ts
 */
import { createDb } from "@/lib/db";
import { createPgEpisodeJournal } from "@/lib/envserver/server/pg-episode-journal";
import { sandboxSessionCeiling, serveSandboxOptions, startEnvServer } from "@/lib/envserver/start-server";
import { counterCatalog, loopbackOptions } from "@/lib/envserver/tests/harness";
import { createSandboxRunner, resolveOptions } from "@/lib/sandbox";

const maxSessions = Number(process.env.CHILD_MAX_SESSIONS ?? 0);
const shared = maxSessions > 0 ? resolveOptions(serveSandboxOptions(maxSessions)) : null;
const sandbox = createSandboxRunner(shared ?? { poolSize: 2 });
const journalUrl = process.env.JOURNAL_DATABASE_URL;
const journal = journalUrl ? createPgEpisodeJournal(createDb(journalUrl, 2)) : undefined;
const server = await startEnvServer(
  counterCatalog(),
  sandbox,
  loopbackOptions({
    journal,
    ...(shared ? { maxSessions, sandboxWorkers: sandboxSessionCeiling(shared, maxSessions) } : {}),
  }),
);
console.log(JSON.stringify({ port: server.port }));
process.once(
  "SIGTERM",
  () =>
    void server
      .stop()
      .then(() => sandbox.close())
      .then(() => process.exit(0)),
);

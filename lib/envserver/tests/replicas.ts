/**
 * Replicas for the journal tests: servers in this process (journal on, unless the options say
 * otherwise) and servers in their own process (tests/child/env-server.ts), killable with SIGKILL,
 * all writing to the test file's database. Everything started here is stopped after the file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll } from "vitest";
import { createSandboxRunner } from "@/lib/sandbox";
import type { useTestDatabase } from "@/tests/db";
import { createPgEpisodeJournal } from "../server/pg-episode-journal";
import { startEnvServer } from "../start-server";
import { counterCatalog, loopbackOptions } from "./harness";

export type Server = Awaited<ReturnType<typeof startEnvServer>>;

export function useReplicas(t: ReturnType<typeof useTestDatabase>) {
  const sandbox = createSandboxRunner({ poolSize: 4 });
  const servers: Server[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    for (const s of servers) await s.stop();
    await sandbox.close();
  });

  /** A server started by the test itself, stopped after the file like the others. */
  const track = (server: Server) => (servers.push(server), server);

  return {
    sandbox,
    track,
    /** The test stopped `server` itself: not stopped again. */
    forget: (server: Server) => void servers.splice(servers.indexOf(server), 1),
    replica: async (overrides: Parameters<typeof loopbackOptions>[0] = {}) =>
      track(
        await startEnvServer(
          counterCatalog(),
          sandbox,
          loopbackOptions({ journal: createPgEpisodeJournal(t.db), ...overrides }),
        ),
      ),
    /** A replica in its own process, killable with SIGKILL. */
    childReplica: async (): Promise<{ port: number; child: ChildProcess }> => {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/child/env-server.ts"], {
        env: { ...process.env, JOURNAL_DATABASE_URL: t.url },
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.push(child);
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const { port } = JSON.parse(String((await lines.next()).value)) as { port: number };
      return { port, child };
    },
  };
}

/**
 * One episode served over MCP's stdio transport (`envstudio mcp`): the scenario is loaded when
 * the process starts, the client's `initialize` finds it ready, and the episode ends when the
 * client hangs up (stdin closes). Nothing but the protocol may go to stdout.
 */
import { randomBytes } from "node:crypto";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SandboxRunner } from "../sandbox";
import type { Catalog } from "./catalog";
import { createEpisodeServer } from "./mcp-episode-server";
import { createSessions } from "./sessions";

export type StdioEpisodeOptions = { scenarioId?: string; seed?: number; maxSteps: number };

/** Starts the episode and serves it on `transport`; resolves once the client has gone and the
 * episode is closed. Throws when the episode cannot start (unknown scenario, sandbox failure). */
export async function serveEpisode(
  catalog: Catalog,
  sandbox: SandboxRunner,
  opts: StdioEpisodeOptions,
  transport: Transport,
): Promise<{ scenarioId: string; ended: Promise<void> }> {
  // One client, one episode: never reaped (the client's lifetime is the session's).
  const sessions = createSessions(catalog, sandbox, {
    maxSessions: 1,
    sandboxWorkers: 1,
    maxSteps: opts.maxSteps,
    idleMs: Number.MAX_SAFE_INTEGER,
  });
  const key = randomBytes(18).toString("base64url");
  const reset = await sessions.reset({ scenario_id: opts.scenarioId, seed: opts.seed, diff: true }, { key });
  if (!reset.ok) throw new Error(`${reset.error.code}: ${reset.error.message}`);
  const { id, scenario } = reset.value;
  const server = createEpisodeServer(sessions, { id, key, scenario });
  const ended = new Promise<void>((resolve) => {
    server.onclose = () => void sessions.closeAll().then(() => resolve());
  });
  await server.connect(transport);
  return { scenarioId: scenario.id, ended };
}

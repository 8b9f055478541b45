/** `envstudio mcp`: one episode of a dataset's scenario served to an MCP client over stdio. */
import { type FlagSpec, WHOLE_NUMBER, numberFlag, parseFlags, requiredString, stringFlag } from "./cli-flags";
import type { CliIo } from "./cli-io";
import { loadServedCatalog } from "./open-project";

export const MCP_FLAGS = { strings: ["dataset", "version", "scenario", "seed"] } as const satisfies FlagSpec;

export async function runMcpCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, MCP_FLAGS);
  const dataset = requiredString(values, "dataset");
  const version = numberFlag(values, "version", WHOLE_NUMBER);
  const seed = numberFlag(values, "seed", {
    integer: true,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    what: "an integer ≥ 0",
  });
  const [{ serveEpisode }, { serveOptionsFromEnv }, { createSandboxRunner }, { StdioServerTransport }] =
    await Promise.all([
      import("../envserver/mcp-stdio"),
      import("../envserver/start-server"),
      import("../sandbox"),
      import("@modelcontextprotocol/sdk/server/stdio.js"),
    ]);
  const { maxSteps } = serveOptionsFromEnv();
  const catalog = await loadServedCatalog(dataset, version);
  const sandbox = createSandboxRunner({ poolSize: 1 });
  const transport = new StdioServerTransport();
  // The client hanging up (stdin ends) or stopping the process ends the episode cleanly.
  const hangUp = () => void transport.close();
  process.stdin.once("end", hangUp);
  process.once("SIGTERM", hangUp);
  process.once("SIGINT", hangUp);
  try {
    // stdout is the protocol's: everything said to a person goes to stderr.
    const { scenarioId, ended } = await serveEpisode(
      catalog,
      sandbox,
      { scenarioId: stringFlag(values, "scenario"), seed, maxSteps },
      transport,
    );
    io.err(`serving one episode of ${catalog.name}, scenario ${scenarioId}, over MCP stdio`);
    await ended;
    return 0;
  } finally {
    process.stdin.off("end", hangUp);
    process.off("SIGTERM", hangUp);
    process.off("SIGINT", hangUp);
    process.stdin.pause();
    await sandbox.close();
  }
}

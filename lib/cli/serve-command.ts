/** `envstudio serve` (headless RL environment server) and `envstudio dataset list|create`. */
import type { DifficultySummary } from "../datasets/difficulty-plan";
import {
  type FlagSpec,
  UsageError,
  WHOLE_NUMBER,
  numberFlag,
  parseFlags,
  requiredString,
  stringFlag,
} from "./cli-flags";
import type { CliIo } from "./cli-io";
import { readEnv } from "../env";
import { loadServedCatalog, openProject } from "./open-project";

export const SERVE_FLAGS = { strings: ["dataset", "version", "port", "host"] } as const satisfies FlagSpec;
export const DATASET_CREATE_FLAGS = {
  strings: ["name", "seed", "test-ratio", "env", "description", "group-size"],
  booleans: ["allow-unverified", "exclude-zero-signal"],
} as const satisfies FlagSpec;

export async function runServeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, SERVE_FLAGS);
  const port = numberFlag(values, "port", { integer: true, min: 0, max: 65535, what: "0–65535" }) ?? 8100;
  const dataset = requiredString(values, "dataset");
  const version = numberFlag(values, "version", WHOLE_NUMBER);
  const [
    { startEnvServer, serveOptionsFromEnv, serveSandboxOptions, sandboxSessionCeiling },
    { createSandboxRunner, resolveOptions },
  ] = await Promise.all([import("../envserver/start-server"), import("../sandbox")]);
  const opts = serveOptionsFromEnv();
  const catalog = await loadServedCatalog(dataset, version);
  // Replicas behind a load balancer record their episodes, so that one can take over another's.
  const journalDb = readEnv("ENVSTUDIO_SERVE_JOURNAL") === "1" ? await openProject() : null;
  const journal = journalDb
    ? (await import("../envserver/server/pg-episode-journal")).createPgEpisodeJournal(journalDb.db)
    : undefined;
  // Workers booted as sessions come; when workers are not shared (SANDBOX_WORKERS_PER_SOURCE=0)
  // the pool is the session ceiling, so resets beyond it are refused instead of waiting.
  const sandboxOptions = resolveOptions(serveSandboxOptions(opts.maxSessions));
  const sandbox = createSandboxRunner(sandboxOptions);
  const host = stringFlag(values, "host") ?? "127.0.0.1";
  const server = await startEnvServer(catalog, sandbox, {
    ...opts,
    sandboxWorkers: sandboxSessionCeiling(sandboxOptions, opts.maxSessions),
    port,
    host,
    journal,
  });
  io.out(
    `serving ${catalog.name} (${catalog.scenarios.length} scenarios, up to ${server.sessions.capacity} live sessions) on http://${host}:${server.port} (HTTP /reset /step /state /mcp, WebSocket /ws)`,
  );
  if (server.token === null)
    io.out("no token needed on this loopback bind (set ENVSTUDIO_SERVE_TOKEN to require one)");
  else if (!opts.token) io.out(`token (generated; set ENVSTUDIO_SERVE_TOKEN to choose one): ${server.token}`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  // Graceful: no new sessions or episodes, the calls in flight answer, then the server closes.
  io.out(`draining: refusing new sessions, waiting up to ${opts.drainMs} ms for calls in flight`);
  const drained = await server.drain(opts.drainMs ?? 0);
  if (!drained) io.err(`calls still in flight after ${opts.drainMs} ms: closing anyway`);
  await server.stop();
  await sandbox.close();
  await journalDb?.close();
  return 0;
}

function describeDifficulty(d: DifficultySummary): string {
  const share = (x: number | null) => (x === null ? "unknown (no rollouts)" : `${(x * 100).toFixed(1)} %`);
  return `difficulty: ${d.excludedZeroSignal} scenario(s) excluded as zero-signal (every counted rollout solved them, or none did); ${d.measured} with rollouts; expected zero-signal groups at G=${d.groupSize}: ${share(d.zeroSignalShareBefore)} before, ${share(d.zeroSignalShareAfter)} after`;
}

export async function runDatasetCommand(argv: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb !== "list" && verb !== "create")
    throw new UsageError(verb ? `unknown verb '${verb}'` : "missing verb (list or create)");
  // Flags are checked before the database is opened: a typo costs no embedded-server start.
  const { values } = parseFlags(rest, verb === "create" ? DATASET_CREATE_FLAGS : {});
  const seed = numberFlag(values, "seed", { integer: true });
  const testRatio = numberFlag(values, "test-ratio");
  const name = verb === "create" ? requiredString(values, "name") : "";
  const groupSize = numberFlag(values, "group-size", {
    integer: true,
    min: 2,
    what: "an integer of at least 2",
  });
  const { db, projectId, close } = await openProject();
  try {
    if (verb === "list") {
      const { findDatasets } = await import("../datasets/server/find-datasets");
      for (const d of await findDatasets(db, projectId))
        io.out(
          `${d.name}\tv${d.versions[0]?.version ?? 0}\t${JSON.stringify((d.versions[0]?.stats as { scenarios?: number } | undefined)?.scenarios ?? 0)} scenarios`,
        );
      return 0;
    }
    const { createDatasetVersion } = await import("../datasets/server/create-dataset-version");
    const v = await createDatasetVersion(db, {
      projectId,
      name,
      description: stringFlag(values, "description"),
      seed,
      testRatio,
      environments: stringFlag(values, "env")?.split(","),
      allowUnverified: values["allow-unverified"] === true,
      difficulty: {
        excludeZeroSignal: values["exclude-zero-signal"] === true,
        ...(groupSize === undefined ? {} : { groupSize }),
      },
    });
    io.out(`created ${v.dataset.name} v${v.version}: ${JSON.stringify(v.stats)}`);
    if (v.difficulty) io.out(describeDifficulty(v.difficulty));
    return 0;
  } finally {
    await close();
  }
}

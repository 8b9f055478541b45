/** `envstudio serve` (headless RL environment server) and `envstudio dataset list|create`. */
import { UsageError, flags, requiredString } from "./cli-flags";
import { openProject } from "./open-project";
import type { CliIo } from "./main";

export async function runServeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = flags(argv, ["dataset", "version", "port", "host"]);
  const port = Number(values.port ?? 8100);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0–65535 (got ${String(values.port)})`);
  const [{ loadCatalog }, { startEnvServer, serveOptionsFromEnv, serveSandboxOptions, sandboxSessionCeiling }, { createSandboxRunner, resolveOptions }] = await Promise.all([
    import("../envserver/server/load-catalog"), import("../envserver/start-server"), import("../sandbox"),
  ]);
  const opts = serveOptionsFromEnv();
  const { db, projectId, close } = await openProject();
  let catalog;
  try {
    catalog = await loadCatalog(db, projectId, requiredString(values, "dataset"), values.version ? Number(values.version) : undefined);
  } finally {
    await close(); // the catalog is in memory: the server needs no database
  }
  // Workers booted as sessions come; when workers are not shared (SANDBOX_WORKERS_PER_SOURCE=0)
  // the pool is the session ceiling, so resets beyond it are refused instead of waiting.
  const sandboxOptions = resolveOptions(serveSandboxOptions(opts.maxSessions));
  const sandbox = createSandboxRunner(sandboxOptions);
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  const sandboxWorkers = sandboxSessionCeiling(sandboxOptions, opts.maxSessions);
  const server = await startEnvServer(catalog, sandbox, { ...opts, sandboxWorkers, port, host });
  io.out(`serving ${catalog.name} (${catalog.scenarios.length} scenarios, up to ${server.sessions.capacity} live sessions) on http://${host}:${server.port} (HTTP /reset /step /state /mcp, WebSocket /ws)`);
  if (server.token === null) io.out("no token needed on this loopback bind (set ENVSTUDIO_SERVE_TOKEN to require one)");
  else if (!opts.token) io.out(`token (generated; set ENVSTUDIO_SERVE_TOKEN to choose one): ${server.token}`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.stop();
  await sandbox.close();
  return 0;
}

export async function runDatasetCommand(argv: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  const { db, projectId, close } = await openProject();
  try {
    if (verb === "list") {
      const { findDatasets } = await import("../datasets/server/find-datasets");
      for (const d of await findDatasets(db, projectId)) io.out(`${d.name}\tv${d.versions[0]?.version ?? 0}\t${JSON.stringify((d.versions[0]?.stats as { scenarios?: number } | undefined)?.scenarios ?? 0)} scenarios`);
      return 0;
    }
    if (verb !== "create") throw new UsageError("usage: envstudio dataset list | dataset create --name NAME …");
    const { values } = flags(rest, ["name", "seed", "test-ratio", "env", "description"], ["allow-unverified"]);
    const { createDatasetVersion } = await import("../datasets/server/create-dataset-version");
    const v = await createDatasetVersion(db, {
      projectId, name: requiredString(values, "name"), description: values.description as string | undefined,
      seed: values.seed === undefined ? undefined : Number(values.seed), testRatio: values["test-ratio"] === undefined ? undefined : Number(values["test-ratio"]),
      environments: typeof values.env === "string" ? values.env.split(",") : undefined, allowUnverified: values["allow-unverified"] === true,
    });
    io.out(`created ${v.dataset.name} v${v.version}: ${JSON.stringify(v.stats)}`);
    return 0;
  } finally {
    await close();
  }
}

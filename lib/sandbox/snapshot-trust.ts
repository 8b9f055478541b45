/**
 * Whether the Pyodide memory snapshot may be booted from. Every sandbox worker starts from that
 * file's bytes — an interpreter image — so whoever can write it decides what runs before the
 * lockdown. The cache folder must therefore be private to this user, and the snapshot is booted
 * only with the digest the server computed from a file it found trustworthy: the host hashes
 * the bytes it actually read and refuses anything else (a swap between check and use, a
 * truncated copy).
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

const GROUP_OR_OTHER_WRITE = 0o022;
const STICKY = 0o1000;

/** The cache folder when the studio has no data dir: the user's own cache (XDG), never a shared
 * temp folder whose name anyone can claim first. */
export function userCacheDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CACHE_HOME?.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "envstudio", "sandbox");
}

const uid = () => process.getuid?.() ?? 0;

/** Why `dir` must not hold an interpreter image, or null when it may: the folder is a real
 * directory owned by this user with no group/other access, and every folder above it is owned by
 * this user or root and not writable by others (unless sticky, as /tmp is: then nobody else can
 * rename our folder away). Creates the folder (0700) when it is missing. */
export function untrustedCacheDir(dir: string): string | null {
  const path = resolve(dir);
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    return `cannot create ${path}: ${(error as Error).message}`;
  }
  const own = lstatSync(path);
  if (!own.isDirectory()) return `${path} is not a directory (a symlink or a file)`;
  if (own.uid !== uid()) return `${path} belongs to uid ${own.uid}, not to this user (uid ${uid()})`;
  if (own.mode & 0o077)
    return `${path} is accessible to other users (mode ${(own.mode & 0o777).toString(8)})`;
  for (let above = dirname(path); ; above = dirname(above)) {
    const stat = lstatSync(above);
    if (stat.uid !== uid() && stat.uid !== 0) return `${above} belongs to uid ${stat.uid}`;
    if (stat.mode & GROUP_OR_OTHER_WRITE && !(stat.mode & STICKY))
      return `${above} is writable by other users (mode ${(stat.mode & 0o777).toString(8)})`;
    if (above === dirname(above)) return null;
  }
}

export type SnapshotCheck = { ok: true; sha256: string } | { ok: false; reason: string };

/** The snapshot's SHA-256 if the file may be booted from: a regular file (not a link) owned by
 * this user and writable by nobody else, in a folder `untrustedCacheDir` accepts. Read through
 * the descriptor that was checked, so the hash is of the file that was checked. */
export function checkSnapshot(path: string): SnapshotCheck {
  const dirProblem = untrustedCacheDir(dirname(path));
  if (dirProblem) return { ok: false, reason: dirProblem };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    return { ok: false, reason: `cannot open ${path}: ${(error as Error).message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: `${path} is not a regular file` };
    if (stat.uid !== uid()) return { ok: false, reason: `${path} belongs to uid ${stat.uid}` };
    if (stat.mode & GROUP_OR_OTHER_WRITE)
      return {
        ok: false,
        reason: `${path} is writable by other users (mode ${(stat.mode & 0o777).toString(8)})`,
      };
    const hash = createHash("sha256");
    const chunk = Buffer.alloc(1 << 20);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk))
      hash.update(chunk.subarray(0, read));
    return { ok: true, sha256: hash.digest("hex") };
  } finally {
    closeSync(fd);
  }
}

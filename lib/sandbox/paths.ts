/**
 * Where the sandbox's non-TypeScript files live. Resolved from this module's URL, with the
 * working directory as a fallback for bundlers that rewrite `import.meta.url`.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function sandboxDir(): string {
  try {
    const here = dirname(fileURLToPath(import.meta.url));
    if (existsSync(join(here, "host", "sandbox-host.mjs"))) return here;
  } catch {
    // not a file: URL (bundled); fall through
  }
  return join(process.cwd(), "lib", "sandbox");
}

export const SANDBOX_DIR = sandboxDir();
export const HOST_DIR = join(SANDBOX_DIR, "host");
export const PYTHON_DIR = join(SANDBOX_DIR, "python");
export const HOST_SCRIPT = join(HOST_DIR, "sandbox-host.mjs");
export const SNAPSHOT_SCRIPT = join(HOST_DIR, "make-snapshot.mjs");

export function pyodideDir(): string {
  const candidates = [
    join(SANDBOX_DIR, "..", "..", "node_modules", "pyodide"),
    join(process.cwd(), "node_modules", "pyodide"),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, "pyodide.asm.wasm")));
  if (!found) throw new Error("pyodide is not installed (node_modules/pyodide missing); run npm ci");
  return found;
}

/** Snapshot file name: the Pyodide version plus a hash of the script that decides its contents. */
export function snapshotFile(cacheDir: string, pyodide: string): string {
  const version =
    (JSON.parse(readFileSync(join(pyodide, "package.json"), "utf8")) as { version?: string }).version ??
    "unknown";
  const hash = createHash("sha256").update(readFileSync(SNAPSHOT_SCRIPT)).digest("hex").slice(0, 12);
  return join(cacheDir, `pyodide-${version}-${hash}.snapshot`);
}

/** Children get no environment at all: nothing of the server's secrets crosses. (Next's types
 * make NODE_ENV required on ProcessEnv, hence the cast.) */
export const EMPTY_ENV = {} as NodeJS.ProcessEnv;

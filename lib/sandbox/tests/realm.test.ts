// The JavaScript realm and process layers on their own, as if the Python lockdown had failed: a
// probe (realm/probe.mjs) hardens a Pyodide runtime exactly as a sandbox worker does, then uses
// the internal objects an attacker would want (Pyodide's API and Module, the intrinsics) to try
// every route of the JS-realm escape. It runs under the sandbox host's own Node binary and
// permission flags, NOT jailed (SANDBOX_HOST_BWRAP=off machines); host-side evidence is a
// loopback listener that must see no connection, checked after the probe has exited and a wait
// for anything scheduled asynchronously.
import { execFile } from "node:child_process";
import { type AddressInfo, type Server, createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardenedNodeArgs, resolveHostNode } from "../host-node";
import { EMPTY_ENV, HOST_DIR, PYTHON_DIR, SANDBOX_DIR, pyodideDir } from "../paths";

const PROBE_DIR = join(SANDBOX_DIR, "tests", "realm");
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function runProbe(): Promise<Record<string, string>> {
  const node = resolveHostNode(undefined);
  const pyodide = pyodideDir();
  const args = [
    ...hardenedNodeArgs(node, [pyodide, HOST_DIR, PYTHON_DIR, PROBE_DIR]),
    join(PROBE_DIR, "probe.mjs"),
    String(port),
    pyodide,
    PYTHON_DIR,
  ];
  return new Promise((resolve, reject) => {
    execFile(node.path, args, { env: EMPTY_ENV, timeout: 120_000 }, (error, stdout, stderr) => {
      const line = stdout.trim().split("\n").pop() ?? "";
      if (error && !line) return reject(new Error(`probe failed: ${stderr.slice(-2000)}`));
      resolve(JSON.parse(line) as Record<string, string>);
    });
  });
}

describe("JS realm and process layers (no jail)", () => {
  it("the host's Node denies network through its permission model", () => {
    expect(resolveHostNode(undefined).denysNetwork).toBe(true);
  });

  it("blocks every realm route, then shows no host-side evidence", { timeout: 180_000 }, async () => {
    const results = await runProbe();
    const { "harness still answers": harness, ...attempts } = results;
    expect(harness).toBe('{"ok":true}');
    expect(Object.keys(attempts).length).toBeGreaterThanOrEqual(20);
    for (const [name, outcome] of Object.entries(attempts))
      expect(`${name}: ${outcome}`).not.toContain("ESCAPED");
    // Network attempts are refused by the permission model, not merely unanswered.
    expect(attempts["getBuiltinModule(net) + connect"]).toMatch(
      /blocked: .*(ERR_ACCESS_DENIED|restricted|allow-net)/,
    );
    expect(attempts["import(node:net) + connect"]).toMatch(
      /blocked: .*(ERR_ACCESS_DENIED|restricted|allow-net)/,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(connections).toBe(0);
  });
});

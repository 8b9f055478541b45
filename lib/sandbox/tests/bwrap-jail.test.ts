// The bubblewrap jail on its own, without the Python lockdown: raw python3 in the same command
// line the bwrap backend uses must not reach the network, host files, host processes or env.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, type Server, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bwrapCommand, bwrapProblem } from "../bwrap";
import { resolveOptions } from "../options";

const options = resolveOptions({ backend: "bwrap" });
const secret = `jail-secret-${randomBytes(6).toString("hex")}`;
const secretFile = join(tmpdir(), `envstudio-jail-${randomBytes(6).toString("hex")}`);
const marker = join(tmpdir(), `envstudio-jail-marker-${randomBytes(6).toString("hex")}`);
let server: Server;
let port = 0;
let connections = 0;

function jailed(code: string): { status: number | null; out: string } {
  const [command, ...args] = bwrapCommand(options, ["-I", "-S", "-c", code]);
  const result = spawnSync(command ?? "", args, {
    env: { ...process.env, JAIL_SECRET: secret },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  expect(bwrapProblem(options.python)).toBeNull();
  writeFileSync(secretFile, secret);
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(secretFile, { force: true });
  rmSync(marker, { force: true });
});

describe("bubblewrap jail without the Python lockdown", () => {
  it("has no network", () => {
    const r = jailed(
      `import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(("127.0.0.1", ${port}))\nprint("CONNECTED")`,
    );
    expect(r.out).not.toContain("CONNECTED");
    expect(connections).toBe(0);
  });

  it("cannot read or write host files", () => {
    const r = jailed(`print(open(${JSON.stringify(secretFile)}).read())`);
    expect(r.out).not.toContain(secret);
    jailed(`open(${JSON.stringify(marker)}, "w").write("x")\nopen("/usr/envstudio-marker", "w")`);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync("/usr/envstudio-marker")).toBe(false);
  });

  it("sees an empty environment and only its own processes", () => {
    const r = jailed(
      `import os\nprint(sorted(os.environ))\nprint(len([p for p in os.listdir("/proc") if p.isdigit()]))\nprint(os.getuid())`,
    );
    expect(r.out).not.toContain(secret);
    const [env, pids, uid] = r.out.trim().split("\n");
    expect(env).not.toContain("JAIL_SECRET");
    expect(Number(pids)).toBeLessThan(5);
    expect(uid).toBe("65534");
  });

  it("can run shell commands only inside the jail", () => {
    const r = jailed(
      `import subprocess\nprint(subprocess.run(["/bin/sh", "-c", "touch ${marker}; cat /etc/hostname; echo ran"], capture_output=True, text=True).stdout)`,
    );
    expect(existsSync(marker)).toBe(false);
    expect(r.out).not.toContain(secret);
  });

  it("enforces the address-space limit", () => {
    const r = jailed("x = bytearray(2 * 1024**3)\nprint('ALLOCATED')");
    expect(r.out).toContain("MemoryError");
    expect(r.out).not.toContain("ALLOCATED");
  });
});

/**
 * Python's official MCP client (`mcp` 2.3.0, `mcp.Client`) through whole episodes on the counter:
 * - `mode="auto"` at /mcp: it probes `server/discover`, falls back to the 2025-11-25 handshake
 *   (a session), lists the tools, adds 1, submits for reward 1, and a call after the end is an
 *   isError result;
 * - `mode="auto"` at an episode's own URL: `server/discover` answers, so the client speaks
 *   2026-07-28 per request, through the same episode; pinned to 2026-07-28 (no probe), too;
 * - `mode="legacy"` at an episode URL: the error paths (unknown tool → -32602 raised, wrong
 *   argument type and a raising tool → isError results, then a call that succeeds).
 * The client runs as its own process (tests/python/mcp_client_episode.py); the server is real.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { pythonMcpClient } from "@/tests/python-mcp";
import { ENDED_MESSAGE } from "../sessions";
import { startEnvServer } from "../start-server";
import { countersWithExplode, loopbackOptions } from "./harness";

const run = promisify(execFile);
const SCRIPT = path.join(__dirname, "python", "mcp_client_episode.py");
let python: string;
let sandbox: SandboxRunner;
let server: Awaited<ReturnType<typeof startEnvServer>>;
const base = () => `http://127.0.0.1:${server.port}`;

beforeAll(async () => {
  python = await pythonMcpClient();
  sandbox = createSandboxRunner({ poolSize: 2 });
  const catalog = await countersWithExplode(sandbox);
  server = await startEnvServer(catalog, sandbox, loopbackOptions({ sandboxWorkers: 2 }));
}, 360_000);
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

type Result = { is_error: boolean; structured: Record<string, unknown> | null; text: string[] };
type Seen = Record<string, unknown> & { server: string | null; protocol: string };

async function episode(url: string, mode: string, kind: "counter" | "explode"): Promise<Seen> {
  const { stdout } = await run(python, [SCRIPT, url, mode, kind], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null") as Seen;
}

async function newEpisode(scenario: string) {
  const res = await fetch(`${base()}/mcp/episodes`, {
    method: "POST",
    body: JSON.stringify({ scenario_id: scenario }),
  });
  return `${base()}${((await res.json()) as { url: string }).url}`;
}

function expectGoldPath(seen: Seen) {
  expect(seen.server).toBe("envstudio");
  expect(seen.tools).toEqual(["get_count", "add", "submit"]);
  expect(seen.read_only).toEqual({ get_count: true, add: false, submit: false });
  expect(seen.add_schema).toMatchObject({ type: "object", required: ["amount"] });
  expect(seen.add).toMatchObject({
    is_error: false,
    structured: { observation: { success: true, data: 1 }, done: false },
  });
  expect(seen.submit).toMatchObject({ is_error: false, structured: { reward: 1, done: true } });
  const after = seen.after as Result;
  expect(after.is_error).toBe(true);
  expect(after.text.join()).toContain(ENDED_MESSAGE);
}

describe("Python's mcp client completes episodes", () => {
  it("auto mode at /mcp falls back to a 2025-11-25 session and gets reward 1 on the gold path", async () => {
    const seen = await episode(`${base()}/mcp?scenario=counter/c1`, "auto", "counter");
    expect(seen.protocol).toBe("2025-11-25");
    expectGoldPath(seen);
  }, 90_000);

  it("auto mode at an episode's own URL discovers 2026-07-28 and plays it per request; so does a pin", async () => {
    const url = await newEpisode("counter/c1");
    const seen = await episode(url, "auto", "counter");
    expect(seen.protocol).toBe("2026-07-28");
    expectGoldPath(seen);
    expect((await fetch(url, { method: "DELETE" })).status).toBe(204);

    const pinned = await newEpisode("counter/c1");
    // A pin adopts the revision without asking the server, so no server name is known.
    const seenPinned = await episode(pinned, "2026-07-28", "counter");
    expect(seenPinned.protocol).toBe("2026-07-28");
    expectGoldPath({ ...seenPinned, server: "envstudio" });
    expect((await fetch(pinned, { method: "DELETE" })).status).toBe(204);
  }, 90_000);

  it("the error paths: unknown tool, wrong argument type, a tool that raises, then a call that works", async () => {
    const url = await newEpisode("explode/e1");
    const seen = await episode(url, "legacy", "explode");
    expect(seen.unknown_tool_code).toBe(-32602);
    expect(seen.wrong_type).toMatchObject({ is_error: true });
    expect((seen.wrong_type as Result).text.join()).toContain("Invalid arguments for 'add'");
    expect(seen.raised).toMatchObject({ is_error: true });
    expect((seen.raised as Result).text.join()).toContain("boom");
    expect(seen.then).toMatchObject({ is_error: false, structured: { observation: { data: 1 } } });
    await fetch(url, { method: "DELETE" });
  }, 90_000);
});

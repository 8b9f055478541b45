/**
 * `envstudio mcp` as a separate process, driven by the official TypeScript SDK's
 * `StdioClientTransport` (@modelcontextprotocol/sdk), as a desktop or CLI agent's MCP
 * configuration starts it: the scenario's tools, the gold calls, submit → reward 1, and the
 * process exits when the client disconnects. Then the same through Python's official `mcp`
 * client (2.3.0, `mode="auto"`: it probes for 2026-07-28 and falls back to the 2025 handshake).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { loadSamples } from "@/prisma/seed/load-samples";
import { useTestDatabase } from "@/tests/db";
import { pythonMcpClient } from "@/tests/python-mcp";
import { seedServedDataset } from "@/tests/served-dataset";

const ROOT = path.resolve(import.meta.dirname, "../..");
const t = useTestDatabase();
const samples = loadSamples();
let sandbox: SandboxRunner;

beforeAll(async () => {
  sandbox = createSandboxRunner({ poolSize: 1 });
  const { id: projectId } = await getDefaultProject(t.db);
  await seedServedDataset(t.db, sandbox, projectId, samples);
}, 180_000);
afterAll(async () => {
  await sandbox?.close();
});

describe("envstudio mcp (stdio)", () => {
  it("serves one episode to the SDK's stdio client: tools, gold calls, submit → reward 1, then exits", async () => {
    const sample = samples[0];
    const scenario = sample?.scenarios[0];
    if (!sample || !scenario) throw new Error("no sample scenario");
    const id = `${sample.slug}/${scenario.task_id}`;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, "bin/envstudio.mjs"), "mcp", "--dataset", "served", "--scenario", id],
      env: { ...(process.env as Record<string, string>), DATABASE_URL: t.url },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    expect(client.getInstructions()).toContain(scenario.task);

    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.at(-1)).toBe("submit");
    for (const call of scenario.gold_calls) expect(names).toContain(call.name);

    for (const call of scenario.gold_calls) {
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      expect(result).toMatchObject({ structuredContent: { done: false } });
    }
    expect(await client.callTool({ name: "submit", arguments: {} })).toMatchObject({
      isError: false,
      structuredContent: { reward: 1, done: true },
    });

    const pid = transport.pid;
    expect(pid).not.toBeNull();
    await client.close();
    // The process is gone once its client has closed (stdin ended: the episode closes, it exits).
    await expect.poll(() => isAlive(pid ?? 0), { timeout: 20_000, interval: 100 }).toBe(false);
  });

  it("serves an episode to Python's mcp client over stdio", async () => {
    const python = await pythonMcpClient();
    const sample = samples[0];
    const scenario = sample?.scenarios[0];
    if (!sample || !scenario) throw new Error("no sample scenario");
    const server = {
      command: process.execPath,
      args: [
        path.join(ROOT, "bin/envstudio.mjs"),
        "mcp",
        "--dataset",
        "served",
        "--scenario",
        `${sample.slug}/${scenario.task_id}`,
      ],
      env: { ...process.env, DATABASE_URL: t.url },
    };
    const script = path.join(ROOT, "lib/envserver/tests/python/mcp_client_episode.py");
    const { stdout } = await promisify(execFile)(
      python,
      [script, `stdio:${JSON.stringify(server)}`, "auto", JSON.stringify(scenario.gold_calls)],
      { timeout: 90_000 },
    );
    const seen = JSON.parse(stdout.trim().split("\n").at(-1) ?? "null") as {
      server: string;
      protocol: string;
      tools: string[];
      steps: { is_error: boolean }[];
      submit: { is_error: boolean; structured: { reward: number; done: boolean } };
    };
    expect(seen.server).toBe("envstudio");
    expect(seen.protocol).toBe("2025-11-25");
    expect(seen.tools.at(-1)).toBe("submit");
    expect(seen.steps.map((step) => step.is_error)).toEqual(scenario.gold_calls.map(() => false));
    expect(seen.submit).toMatchObject({ is_error: false, structured: { reward: 1, done: true } });
  }, 120_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

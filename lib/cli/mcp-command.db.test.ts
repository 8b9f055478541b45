/**
 * `envstudio mcp` as a separate process, driven by the official TypeScript SDK's
 * `StdioClientTransport` (@modelcontextprotocol/sdk), as a desktop or CLI agent's MCP
 * configuration starts it: the scenario's tools, the gold calls, submit → reward 1, and the
 * process exits when the client disconnects.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { type SandboxRunner, createSandboxRunner } from "@/lib/sandbox";
import { loadSamples } from "@/prisma/seed/load-samples";
import { useTestDatabase } from "@/tests/db";
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
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The serve bench's MCP player: each episode is one MCP session over Streamable HTTP with the
 * official TypeScript SDK client, as an MCP agent plays it: `initialize` (the reset: it loads
 * the episode), `tools/call` per gold call, `submit`, then DELETE (the session and episode end).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { GoldCall, Player } from "./serve-load";

const structured = (r: unknown) =>
  (r as { structuredContent?: { reward?: number | null; done?: boolean } }).structuredContent ?? {};

export function openMcp(url: string): Promise<Player> {
  return Promise.resolve({
    async episode(gold: GoldCall[], stepTimes: number[]) {
      const t0 = performance.now();
      const transport = new StreamableHTTPClientTransport(new URL(url));
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(transport);
      const resetMs = performance.now() - t0;
      try {
        for (const call of gold) {
          const t = performance.now();
          const r = await client.callTool({ name: call.name, arguments: call.arguments });
          stepTimes.push(performance.now() - t);
          if (r.isError || structured(r).done)
            throw new Error(`step ${call.name}: ${JSON.stringify(r.content).slice(0, 200)}`);
        }
        const ts = performance.now();
        const submit = await client.callTool({ name: "submit", arguments: {} });
        const submitMs = performance.now() - ts;
        return { resetMs, submitMs, reward: structured(submit).reward ?? -1 };
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    },
    close: () => Promise.resolve(),
  });
}

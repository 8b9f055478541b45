/**
 * The serve bench's OpenEnv MCP player: each episode as upstream's `MCPToolClient` (huggingface/
 * OpenEnv src/openenv/core/mcp_client.py at 00173d47, production mode) plays its tools over HTTP:
 * `openenv/session/create` (the reset), `tools/call` with the `session_id` per gold call, `submit`,
 * then `openenv/session/close`, each a JSON-RPC POST to /mcp on a kept-alive connection
 * (bench/http-client.ts). The same
 * player drives `envstudio serve` and the peer, which both answer that protocol.
 */
import { httpRequest } from "./http-client";
import type { GoldCall, Player } from "./serve-load";

type RpcReply = {
  result?: {
    session_id?: string;
    is_error?: boolean;
    isError?: boolean;
    reward?: number | null;
    structuredContent?: { reward?: number | null };
    structured_content?: { reward?: number | null };
  };
  error?: { message: string };
};

export function openOpenEnvMcp(url: string): Promise<Player> {
  let id = 0;
  const target = new URL(url);
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await httpRequest(
      target,
      "POST",
      { "content-type": "application/json", accept: "*/*" },
      JSON.stringify({ jsonrpc: "2.0", method, params, id: ++id }),
    );
    const reply = JSON.parse(res.text) as RpcReply;
    if (reply.error || !reply.result) throw new Error(`${method}: ${reply.error?.message ?? "no result"}`);
    return reply.result;
  };
  const rewardOf = (r: NonNullable<RpcReply["result"]>) =>
    r.reward ?? r.structuredContent?.reward ?? r.structured_content?.reward ?? -1;
  return Promise.resolve({
    async episode(gold: GoldCall[], stepTimes: number[]) {
      const t0 = performance.now();
      const { session_id: session } = await rpc("openenv/session/create", {});
      if (!session) throw new Error("openenv/session/create: no session_id");
      const resetMs = performance.now() - t0;
      try {
        for (const call of gold) {
          const t = performance.now();
          const r = await rpc("tools/call", {
            name: call.name,
            arguments: call.arguments,
            session_id: session,
          });
          stepTimes.push(performance.now() - t);
          if (r.isError ?? r.is_error) throw new Error(`step ${call.name} failed`);
        }
        const ts = performance.now();
        const submit = await rpc("tools/call", { name: "submit", arguments: {}, session_id: session });
        return { resetMs, submitMs: performance.now() - ts, reward: rewardOf(submit) };
      } finally {
        await rpc("openenv/session/close", { session_id: session }).catch(() => undefined);
      }
    },
    close: () => Promise.resolve(),
  });
}

/**
 * Starts the offline demo's canned-reply endpoint (demo/llm-script.ts) on a loopback port: an
 * OpenAI-compatible HTTP server the studio's worker talks to like to any endpoint. Used by
 * `npm start -- --demo`; run alone with `tsx demo/llm-server.ts <port>`.
 */
import { startFakeOpenAi } from "../tests/fake-openai/server";
import { DEMO_MODEL, createDemoScript } from "./llm-script";

export { DEMO_MODEL };

export async function startDemoLlm(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await startFakeOpenAi({ port, script: createDemoScript(), models: [DEMO_MODEL] });
  return { url: server.url, close: () => server.close() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demo = await startDemoLlm(Number(process.argv[2] ?? 0));
  console.log(`demo endpoint (canned replies) on ${demo.url}`);
}

/**
 * The LlmClient stages use. A reply is cached only once the stage ACCEPTED it: the stage's parser
 * (JSON shape, zod schema, AST check) runs inside the call, so a rejected reply is recorded with
 * its reason and never served again, and a cached reply the stage now rejects is evicted.
 * Order per call: cache, budget, then the request is recorded as sent, sent under the endpoint's
 * concurrency limit with retries (each retry recorded before it goes out), and the outcome recorded
 * once judged. Writes holding a paid answer retry while the database is away (persist.ts).
 */
import { ok } from "../core/result";
import { askChat } from "./ask-chat";
import type { LlmClient, LlmClientDeps } from "./client.types";
import { embedTexts } from "./embed-texts";
import { createPaidCalls } from "./paid-call";

export type { Answer, LlmCache, LlmClient, LlmClientDeps, Parser } from "./client.types";

export function createLlmClient(deps: LlmClientDeps): LlmClient {
  const calls = createPaidCalls(deps);
  return {
    ask: (request, accept) => askChat(calls, deps.transport, request, accept),
    async chat(request) {
      const answered = await askChat(calls, deps.transport, request, (r) => ok(r));
      return answered.ok ? ok(answered.value.reply) : answered;
    },
    embed: (model, input) => embedTexts(calls, deps.transport, model, input),
  };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { createLimiter } from "./limiter";
import { createLlmClient } from "./client";
import { createMemoryCache, createMemoryRecorder } from "./memory";
import { createOpenAiTransport } from "./openai-transport";
import { chatParsed, parseJsonWith } from "./parse";
import { DEFAULT_RETRY_POLICY, backoffDelay } from "./retry";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});

function makeClient(opts: { timeoutMs?: number; concurrency?: number } = {}) {
  const sleeps: number[] = [];
  const cache = createMemoryCache();
  const recorder = createMemoryRecorder();
  const llm = createLlmClient({
    transport: createOpenAiTransport({
      baseUrl: fake.url,
      apiKey: "test",
      timeoutMs: opts.timeoutMs ?? 5_000,
    }),
    cache,
    recorder,
    limiter: createLimiter(opts.concurrency ?? 4),
    prices: { "m-1": { input: 1, output: 2 } },
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 4, baseDelayMs: 10 },
    retryDeps: { sleep: (ms) => (sleeps.push(ms), Promise.resolve()), random: () => 0.5 },
  });
  return { llm, cache, recorder, sleeps };
}

const ask = (text: string) => ({ model: "m-1", messages: [{ role: "user" as const, content: text }] });

describe("LLM client against an OpenAI-compatible server", () => {
  it("returns the reply, records usage and cost, and serves a repeat from the cache", async () => {
    fake.setScript(() => ({ content: "hello", usage: { prompt: 1000, completion: 500 } }));
    const { llm, recorder } = makeClient();
    const before = fake.chatRequests().length;
    const first = await llm.chat(ask("hi"));
    expect(first.ok && first.value.content).toBe("hello");
    expect(first.ok && first.value.cached).toBe(false);
    const second = await llm.chat(ask("hi"));
    expect(second.ok && second.value.cached).toBe(true);
    expect(fake.chatRequests().length - before).toBe(1);
    expect(recorder.calls.map((c) => [c.cached, c.costUsd])).toEqual([
      [false, (1000 * 1 + 500 * 2) / 1e6],
      [true, 0],
    ]);
  });

  it("retries a 429 honouring Retry-After, then a 500, then succeeds", async () => {
    let n = 0;
    fake.setScript(() =>
      ++n === 1
        ? { status: 429, headers: { "retry-after": "3" } }
        : n === 2
          ? { status: 500 }
          : { content: "done" },
    );
    const { llm, sleeps, recorder } = makeClient();
    const result = await llm.chat(ask("retry me"));
    expect(result.ok && result.value.content).toBe("done");
    expect(sleeps[0]).toBe(3000);
    expect(sleeps[1]).toBe(
      backoffDelay(
        1,
        { code: "SERVER_ERROR", message: "", retryable: true },
        { ...DEFAULT_RETRY_POLICY, baseDelayMs: 10 },
        () => 0.5,
      ),
    );
    expect(recorder.calls[0]?.sentAttempts).toBe(3);
    // Every attempt leaves an entry with its cause; the Retry-After was honoured.
    expect(recorder.calls[0]?.outcome?.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        ok: false,
        code: "RATE_LIMITED",
        status: 429,
        retryAfterMs: 3000,
        waitMs: 3000,
      }),
      expect.objectContaining({ attempt: 2, ok: false, code: "SERVER_ERROR", status: 500 }),
      expect.objectContaining({ attempt: 3, ok: true }),
    ]);
  });

  it("gives up after the attempt limit with a retryable error, never caching the failure", async () => {
    fake.setScript(() => ({ status: 503 }));
    const { llm, cache } = makeClient();
    const result = await llm.chat(ask("always down"));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ code: "SERVER_ERROR", retryable: true });
    expect(!result.ok && result.error.message).toMatch(/gave up after 4 attempts/);
    expect(cache.size()).toBe(0);
  });

  it("does not retry a 400", async () => {
    let n = 0;
    fake.setScript(() => (n++, { status: 400, message: "bad model" }));
    const { llm } = makeClient();
    const result = await llm.chat(ask("bad"));
    expect(!result.ok && result.error).toMatchObject({ code: "BAD_REQUEST", retryable: false });
    expect(n).toBe(1);
  });

  it("times out a hanging request and retries it", async () => {
    let n = 0;
    fake.setScript(() => (++n === 1 ? { hang: true } : { content: "late but fine" }));
    const { llm } = makeClient({ timeoutMs: 300 });
    const result = await llm.chat(ask("slow"));
    expect(result.ok && result.value.content).toBe("late but fine");
    expect(n).toBe(2);
  });

  it("treats a malformed response body as a retryable bad response", async () => {
    let n = 0;
    fake.setScript(() => (++n === 1 ? { raw: "{not json" } : { content: "fine" }));
    const { llm } = makeClient();
    const result = await llm.chat(ask("garbled"));
    expect(result.ok && result.value.content).toBe("fine");
  });

  it("passes tools and returns tool calls", async () => {
    fake.setScript((body) => ({
      toolCalls: [{ name: body.tools?.[0]?.function.name ?? "?", arguments: { x: 1 } }],
    }));
    const { llm } = makeClient();
    const tools = [
      {
        type: "function" as const,
        function: { name: "probe", description: "d", parameters: { type: "object", properties: {} } },
      },
    ];
    const result = await llm.chat({ ...ask("call it"), tools, toolChoice: "required" });
    expect(result.ok && result.value.toolCalls).toEqual([
      expect.objectContaining({ name: "probe", arguments: '{"x":1}' }),
    ]);
  });

  it("re-asks with the parse error, at most twice", async () => {
    const seen: string[] = [];
    fake.setScript((body) => {
      seen.push(body.messages.at(-1)?.content ?? "");
      return { content: seen.length < 2 ? "no json here" : '{"score": 7}' };
    });
    const { llm } = makeClient();
    const schema = z.object({ score: z.number() });
    const result = await chatParsed(llm, ask("score it"), (r) => parseJsonWith(schema, r.content));
    expect(result.ok && result.value.value).toEqual({ score: 7 });
    expect(seen[1]).toMatch(/could not be used: no JSON object found/);

    fake.setScript(() => ({ content: "still not json" }));
    const failed = await chatParsed(llm, ask("score again"), (r) => parseJsonWith(schema, r.content));
    expect(!failed.ok && failed.error).toMatchObject({ code: "PARSE_FAILED", retryable: false });
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const slow = await startFakeOpenAi({ latencyMs: 100, script: () => ({ content: "x" }) });
    let inFlight = 0;
    let peak = 0;
    const base = createOpenAiTransport({ baseUrl: slow.url, apiKey: "t", timeoutMs: 5000 });
    const transport = {
      ...base,
      chat: async (...a: Parameters<typeof base.chat>) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        try {
          return await base.chat(...a);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const llm = createLlmClient({
      transport,
      cache: createMemoryCache(),
      recorder: createMemoryRecorder(),
      limiter: createLimiter(3),
      prices: {},
      retry: DEFAULT_RETRY_POLICY,
      retryDeps: { sleep: () => Promise.resolve(), random: Math.random },
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => llm.chat(ask(`q${i}`))));
    await slow.close();
    expect(peak).toBe(3);
  });

  it("embeds and caches embeddings", async () => {
    const { llm } = makeClient();
    const before = fake.requests.length;
    const a = await llm.embed("e-1", ["alpha", "beta"]);
    const b = await llm.embed("e-1", ["alpha", "beta"]);
    expect(a.ok && a.value.length).toBe(2);
    expect(b).toEqual(a);
    expect(fake.requests.length - before).toBe(1);
  });
});

/**
 * The cache holds accepted replies only: a reply the stage rejects is recorded with its reason,
 * re-asked with the rejection, and never replayed; a poisoned entry is evicted; a received answer
 * survives a database that is briefly away; concurrent calls add no listener to the shared signal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { err, ok } from "@/lib/core/result";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { linkedCount } from "./abort";
import { chatCacheKey } from "./cache-key";
import { createLlmClient } from "./client";
import { createLimiter } from "./limiter";
import { createMemoryCache, createMemoryRecorder } from "./memory";
import { createOpenAiTransport } from "./openai-transport";
import { chatParsed, parseJsonWith } from "./parse";
import { DEFAULT_RETRY_POLICY } from "./retry";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});

function makeClient(
  opts: {
    cache?: ReturnType<typeof createMemoryCache>;
    recorder?: ReturnType<typeof createMemoryRecorder>;
    signal?: AbortSignal;
    concurrency?: number;
  } = {},
) {
  const cache = opts.cache ?? createMemoryCache();
  const recorder = opts.recorder ?? createMemoryRecorder();
  const llm = createLlmClient({
    transport: createOpenAiTransport({ baseUrl: fake.url, apiKey: "test", timeoutMs: 5_000 }),
    cache,
    recorder,
    limiter: createLimiter(opts.concurrency ?? 4),
    prices: { "m-1": { input: 1, output: 2 } },
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, baseDelayMs: 1 },
    retryDeps: { sleep: () => Promise.resolve(), random: () => 0.5, signal: opts.signal },
    persist: { maxWaitMs: 5_000, baseDelayMs: 1, maxDelayMs: 5 },
  });
  return { llm, cache, recorder };
}

const ask = (text: string) => ({ model: "m-1", messages: [{ role: "user" as const, content: text }] });
const Score = z.object({ score: z.number() });
const parseScore = (r: { content: string | null }) => parseJsonWith(Score, r.content);

describe("a reply is cached only once the stage accepted it", () => {
  it("records a rejected reply with its reason, re-asks with it, and a re-run asks again instead of replaying it", async () => {
    const answers = ['{"score": "high"}', '{"score": 7}'];
    const seen: string[] = [];
    fake.setScript(
      (body) => (
        seen.push(body.messages.at(-1)?.content ?? ""),
        { content: answers.shift() ?? '{"score": 9}' }
      ),
    );
    const { llm, cache, recorder } = makeClient();
    const first = await chatParsed(llm, ask("rate A"), parseScore, 1);
    expect(first.ok && first.value.value).toEqual({ score: 7 });
    expect(seen[1]).toMatch(/could not be used: score: /);
    expect(recorder.calls.map((c) => [c.status, c.rejection !== null])).toEqual([
      ["REJECTED", true],
      ["ACCEPTED", false],
    ]);
    expect(recorder.calls[0]?.outcome?.response).toMatchObject({ content: '{"score": "high"}' });
    // Only the accepted re-ask is cached: the first request is not.
    expect(await cache.get(chatCacheKey(ask("rate A")))).toBeUndefined();
    expect(cache.size()).toBe(1);
    const before = fake.chatRequests().length;
    const rerun = await chatParsed(llm, ask("rate A"), parseScore, 1);
    expect(rerun.ok && rerun.value.value).toEqual({ score: 9 });
    expect(fake.chatRequests().length - before).toBe(1);
  });

  it("fails with the last reason after the per-stage limit", async () => {
    fake.setScript(() => ({ content: "no json" }));
    const { llm, recorder } = makeClient();
    const result = await chatParsed(llm, ask("rate B"), parseScore, 0);
    expect(!result.ok && result.error).toMatchObject({
      code: "PARSE_FAILED",
      message: expect.stringMatching(/after 1 tries: no JSON object found/) as unknown,
    });
    expect(recorder.calls).toHaveLength(1);
  });

  it("evicts a poisoned cache entry the stage rejects, and asks the endpoint", async () => {
    const cache = createMemoryCache();
    const request = ask("rate C");
    await cache.put(chatCacheKey(request), "m-1", {
      content: "{truncated",
      toolCalls: [],
      finishReason: "stop",
      usage: { promptTokens: 1, completionTokens: 1 },
      model: "m-1",
    });
    fake.setScript(() => ({ content: '{"score": 3}' }));
    const { llm, recorder } = makeClient({ cache });
    const before = fake.chatRequests().length;
    const result = await chatParsed(llm, request, parseScore, 0);
    expect(result.ok && result.value.value).toEqual({ score: 3 });
    expect(fake.chatRequests().length - before).toBe(1);
    expect(recorder.calls.map((c) => [c.cached, c.status])).toEqual([
      [true, "REJECTED"],
      [false, "ACCEPTED"],
    ]);
    expect(recorder.calls[0]?.rejection).toMatch(/evicted/);
    expect((await cache.get(chatCacheKey(request))) as { content: string }).toMatchObject({
      content: '{"score": 3}',
    });
  });

  it("does not cache a reply whose check could not run, and says why", async () => {
    fake.setScript(() => ({ content: '{"score": 1}' }));
    const { llm, cache, recorder } = makeClient();
    const result = await llm.ask(ask("rate D"), () => {
      throw new Error("sandbox host down");
    });
    expect(!result.ok && result.error).toMatchObject({
      code: "BAD_RESPONSE",
      retryable: true,
      message: expect.stringContaining("sandbox host down") as unknown,
    });
    expect(cache.size()).toBe(0);
    expect(recorder.calls[0]).toMatchObject({
      status: "REJECTED",
      rejection: "not checked: sandbox host down",
    });
  });
});

describe("a received answer is not lost while the database is away", () => {
  it("retries the cache and record writes and never asks the endpoint again", async () => {
    fake.setScript(() => ({ content: '{"score": 5}' }));
    const cache = createMemoryCache();
    const recorder = createMemoryRecorder();
    let failures = 3;
    const flakyCache = {
      ...cache,
      put: (k: string, m: string, r: unknown) =>
        failures-- > 0 ? Promise.reject(new Error("connection terminated")) : cache.put(k, m, r),
    };
    const flakyRecorder = {
      ...recorder,
      finish: (...a: Parameters<typeof recorder.finish>) =>
        failures-- > 0
          ? Promise.reject(new Error("the database system is starting up"))
          : recorder.finish(...a),
    };
    const { llm } = makeClient({ cache: flakyCache, recorder: flakyRecorder });
    const before = fake.chatRequests().length;
    const result = await llm.ask(ask("rate E"), (r) => parseScore(r));
    expect(result.ok && result.value.verdict).toEqual(ok({ score: 5 }));
    expect(fake.chatRequests().length - before).toBe(1);
    expect(cache.size()).toBe(1);
    expect(recorder.calls).toEqual([expect.objectContaining({ status: "ACCEPTED", sentAttempts: 1 })]);
  });
});

describe("abort listeners", () => {
  it("runs 500 concurrent calls on one shared signal without a listener warning, and releases every link", async () => {
    fake.setScript((body) => ({ content: body.messages.at(-1)?.content ?? "" }));
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on("warning", onWarning);
    const shutdown = new AbortController();
    try {
      const { llm } = makeClient({ signal: shutdown.signal, concurrency: 64 });
      const results = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          llm.ask(ask(`echo ${i}`), (r) => (r.content ? ok(r.content) : err("empty"))),
        ),
      );
      expect(results.every((r) => r.ok && r.value.verdict.ok)).toBe(true);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    expect(linkedCount(shutdown.signal)).toBe(0);
  });
});

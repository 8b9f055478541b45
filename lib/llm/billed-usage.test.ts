/**
 * Every answer the endpoint billed is counted, whatever became of it: a 200 with `choices: []`
 * (usage present) is paid for, then retried; when every attempt is such an answer the call fails
 * with the cost of all of them. A model without a price is marked on its calls.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fake-openai/server";
import { createTestLlm } from "@/tests/fake-openai/test-llm";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const PRICES = { "m-1": { input: 1, output: 2 } };
const ask = (model: string, text: string) => ({
  model,
  messages: [{ role: "user" as const, content: text }],
});
const EMPTY = { noChoices: true as const, usage: { prompt: 700, completion: 30 } };

describe("billed answers the client cannot use", () => {
  it("counts the usage of a 200 without choices, then the answer that followed", async () => {
    let n = 0;
    fake.setScript(() => (++n <= 2 ? EMPTY : { content: "at last", usage: { prompt: 700, completion: 40 } }));
    const { llm, recorder } = createTestLlm(fake.url, { prices: PRICES, maxAttempts: 5 });
    const result = await llm.chat(ask("m-1", "empty twice"));
    expect(result.ok && result.value.content).toBe("at last");
    const [call] = recorder.calls;
    expect(call?.outcome?.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        ok: false,
        code: "BAD_RESPONSE",
        usage: { promptTokens: 700, completionTokens: 30 },
      }),
      expect.objectContaining({
        attempt: 2,
        ok: false,
        code: "BAD_RESPONSE",
        usage: { promptTokens: 700, completionTokens: 30 },
      }),
      expect.objectContaining({ attempt: 3, ok: true }),
    ]);
    expect(call?.outcome?.usage).toEqual({ promptTokens: 2100, completionTokens: 100 });
    expect(call?.costUsd).toBeCloseTo((2100 * 1 + 100 * 2) / 1e6, 12);
    expect(call?.status).toBe("ACCEPTED");
  });

  it("fails a call whose five attempts all came back without choices, with the cost of all five", async () => {
    fake.setScript(() => EMPTY);
    const { llm, recorder } = createTestLlm(fake.url, { prices: PRICES, maxAttempts: 5 });
    const before = fake.chatRequests().length;
    const result = await llm.chat(ask("m-1", "always empty"));
    expect(!result.ok && result.error).toMatchObject({ code: "BAD_RESPONSE", retryable: true });
    expect(!result.ok && result.error.message).toMatch(/no choices \(gave up after 5 attempts\)/);
    expect(fake.chatRequests().length - before).toBe(5);
    const [call] = recorder.calls;
    expect(call?.status).toBe("FAILED");
    expect(call?.outcome?.usage).toEqual({ promptTokens: 3500, completionTokens: 150 });
    expect(call?.costUsd).toBeCloseTo((3500 * 1 + 150 * 2) / 1e6, 12);
  });

  it("counts the usage of embeddings answered without data", async () => {
    let n = 0;
    fake.setEmbeddings((input) =>
      ++n === 1
        ? {
            raw: JSON.stringify({
              object: "list",
              model: "m-1",
              usage: { prompt_tokens: 9, total_tokens: 9 },
            }),
          }
        : input.map(() => [1, 0]),
    );
    const { llm, recorder } = createTestLlm(fake.url, { prices: PRICES });
    const result = await llm.embed("m-1", ["a"]);
    expect(result.ok && result.value).toEqual([[1, 0]]);
    expect(recorder.calls[0]?.outcome?.usage).toEqual({ promptTokens: 9 + 10, completionTokens: 0 });
  });

  it("marks the calls of a model without a price (dated snapshots of a priced model are priced)", async () => {
    fake.setScript(() => ({ content: "ok" }));
    const { llm, recorder } = createTestLlm(fake.url, { prices: PRICES });
    await llm.chat(ask("gpt-4o", "unpriced"));
    await llm.chat(ask("m-1-2025-04-14", "a snapshot"));
    await llm.chat(ask("m-1-mini", "another model"));
    expect(recorder.calls.map((c) => [c.model, c.unpriced, c.costUsd > 0])).toEqual([
      ["gpt-4o", true, false],
      ["m-1-2025-04-14", false, true],
      ["m-1-mini", true, false],
    ]);
  });
});

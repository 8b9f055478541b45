/** TEST ONLY. An LlmClient on the fake server with an in-memory cache and recorder. */
import {
  DEFAULT_RETRY_POLICY,
  createLimiter,
  createLlmClient,
  createMemoryCache,
  createMemoryRecorder,
  createOpenAiTransport,
  type PriceTable,
} from "@/lib/llm";

export function createTestLlm(
  url: string,
  opts: { timeoutMs?: number; concurrency?: number; prices?: PriceTable; maxAttempts?: number } = {},
) {
  const cache = createMemoryCache();
  const recorder = createMemoryRecorder();
  const llm = createLlmClient({
    transport: createOpenAiTransport({ baseUrl: url, apiKey: "test", timeoutMs: opts.timeoutMs ?? 10_000 }),
    cache,
    recorder,
    limiter: createLimiter(opts.concurrency ?? 4),
    prices: opts.prices ?? {},
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: opts.maxAttempts ?? 3, baseDelayMs: 5 },
    retryDeps: { sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))), random: () => 0.5 },
  });
  return { llm, cache, recorder };
}

export const TEST_MODELS = {
  topic: "m-topic",
  logic: "m-logic",
  code: "m-code",
  testState: "m-state",
  tester: "m-tester",
  judge: "m-judge",
  embedding: null,
};

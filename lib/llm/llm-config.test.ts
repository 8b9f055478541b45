import { describe, expect, it } from "vitest";
import { readLlmConfig } from "./llm-config";

describe("LLM configuration", () => {
  it("reads the endpoint limits that every worker shares", () => {
    const config = readLlmConfig({ LLM_CONCURRENCY: "4", LLM_REQUESTS_PER_MINUTE: "120" });
    expect(config.concurrency).toBe(4);
    expect(config.requestsPerMinute).toBe(120);
    expect(readLlmConfig({}).requestsPerMinute).toBeNull();
    expect(readLlmConfig({ LLM_REQUESTS_PER_MINUTE: "" }).requestsPerMinute).toBeNull();
  });

  it.each([
    ["LLM_CONCURRENCY", "0"],
    ["LLM_CONCURRENCY", "1.5"],
    ["LLM_REQUESTS_PER_MINUTE", "0"],
    ["LLM_REQUESTS_PER_MINUTE", "-3"],
    ["LLM_REQUESTS_PER_MINUTE", "many"],
  ])("refuses %s=%s with a message naming it", (name, value) => {
    expect(() => readLlmConfig({ [name]: value })).toThrow(new RegExp(`invalid LLM configuration.*${name}`));
  });
});

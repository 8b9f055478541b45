/**
 * Cache keys: a SHA-256 over a canonical JSON of everything that changes the answer (model,
 * messages, parameters, tools, salt). Object keys are sorted so property order never splits the
 * cache. `purpose` is bookkeeping and deliberately excluded.
 */
import { createHash } from "node:crypto";
import type { ChatRequest } from "./llm.schema";

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function chatCacheKey(request: ChatRequest): string {
  const { purpose: _purpose, ...keyed } = request;
  return "chat:" + createHash("sha256").update(canonicalJson(keyed)).digest("hex");
}

export function embeddingCacheKey(model: string, input: string[]): string {
  return "embed:" + createHash("sha256").update(canonicalJson({ model, input })).digest("hex");
}

import { describe, expect, it } from "vitest";
import { extractJsonObject, extractPythonBlock, extractSection } from "./parse";
import { parseRetryAfter } from "./openai-transport";

describe("parsers", () => {
  it("finds JSON fenced, bare, or after reasoning", () => {
    expect(extractJsonObject('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJsonObject('Sure! {"a": {"b": "}"}} trailing')).toEqual({
      ok: true,
      value: { a: { b: "}" } },
    });
    expect(extractJsonObject('<think>{"no": 1}</think>{"yes": 2}')).toEqual({ ok: true, value: { yes: 2 } });
    expect(extractJsonObject("{'a': 1}").ok).toBe(false);
  });

  it("takes the last python block and removes fences exactly", () => {
    const text = "draft\n```python\nx = 1\n```\nfinal\n```python\nclass Product:\n    pass\n```";
    expect(extractPythonBlock(text)).toEqual({ ok: true, value: "class Product:\n    pass\n" });
    expect(extractPythonBlock("no code").ok).toBe(false);
  });

  it("reads sections by exact header", () => {
    expect(extractSection("# Analysis\nwhy\n# Class Name\nProduct\n", "class name")).toBe("Product");
    expect(extractSection("# Analysis\nwhy", "Class Name")).toBeNull();
  });

  it("reads Retry-After as seconds, ms or a date", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "150" }))).toBe(150);
    expect(parseRetryAfter(new Headers({ "retry-after": new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(parseRetryAfter(new Headers({}))).toBeUndefined();
  });
});

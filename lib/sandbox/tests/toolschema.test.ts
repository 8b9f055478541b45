// Tool schemas and editor diagnostics from Python source, extracted with `ast` in the sandbox.
import { afterAll, describe, expect, it } from "vitest";
import { SHOP_CLASS, SHOP_SOURCE } from "../fixtures";
import type { Tool } from "../index";
import { createUnsandboxedNativeRunner } from "../testing";

const runner = createUnsandboxedNativeRunner({ spareWorkers: 1 });
afterAll(() => runner.close());

async function tools(source: string, className = "Env"): Promise<Tool[]> {
  const result = await runner.extractTools(source, className);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const params = async (signature: string, header = "from typing import *\n") => {
  const [tool] = await tools(`${header}class Env:\n    def f(${signature}):\n        pass\n`);
  return tool?.function.parameters;
};

describe("annotations", () => {
  it.each([
    ["self, a: str", { a: { type: "string" } }],
    ["self, a: int", { a: { type: "integer" } }],
    ["self, a: float", { a: { type: "number" } }],
    ["self, a: bool", { a: { type: "boolean" } }],
    ["self, a", { a: {} }],
    ["self, a: List[int]", { a: { type: "array", items: { type: "integer" } } }],
    ["self, a: list[str]", { a: { type: "array", items: { type: "string" } } }],
    ["self, a: list", { a: { type: "array" } }],
    ["self, a: Tuple[int, ...]", { a: { type: "array", items: { type: "integer" } } }],
    ["self, a: Dict[str, int]", { a: { type: "object", additionalProperties: { type: "integer" } } }],
    ["self, a: dict", { a: { type: "object" } }],
    ["self, a: Literal['x', 'y']", { a: { type: "string", enum: ["x", "y"] } }],
    ["self, a: Union[int, str]", { a: { anyOf: [{ type: "integer" }, { type: "string" }] } }],
    ["self, a: 'int'", { a: { type: "integer" } }],
    ["self, a: typing.Any", { a: {} }],
  ])("%s", async (signature, properties) => {
    expect(await params(signature, "import typing\nfrom typing import *\n")).toEqual({
      type: "object",
      properties,
      required: ["a"],
      additionalProperties: false,
    });
  });

  it("makes Optional, `X | None` and defaulted parameters not required", async () => {
    const p = await params(
      "self, a: str, b: Optional[int], c: int | None, d: str = 'x', *, e: bool = False, g: float",
    );
    expect(p?.required).toEqual(["a", "g"]);
    expect(p?.properties).toMatchObject({
      b: { type: ["integer", "null"] },
      c: { type: ["integer", "null"] },
      e: { type: "boolean" },
    });
  });

  it("allows extra arguments only with **kwargs", async () => {
    expect((await params("self, **kwargs"))?.additionalProperties).toBeUndefined();
    expect((await params("self"))?.additionalProperties).toBe(false);
  });

  it("expands TypedDicts defined in the module, honouring total=False and NotRequired", async () => {
    const header = [
      "from typing import TypedDict, NotRequired, List",
      "class Item(TypedDict):",
      "    sku: str",
      "    qty: int",
      "    note: NotRequired[str]",
      "class Opts(TypedDict, total=False):",
      "    fast: bool",
      "",
    ].join("\n");
    const p = await params("self, items: List[Item], opts: Opts", header);
    expect(p?.properties.items).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: { sku: { type: "string" }, qty: { type: "integer" }, note: { type: "string" } },
        required: ["sku", "qty"],
      },
    });
    expect(p?.properties.opts).toEqual({ type: "object", properties: { fast: { type: "boolean" } } });
  });
});

describe("docstrings and methods", () => {
  it("reads Google and numpy docstrings from the sample environment", async () => {
    const byName = Object.fromEntries(
      (await tools(SHOP_SOURCE, SHOP_CLASS)).map((t) => [t.function.name, t.function]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      "cancel_order",
      "explode",
      "get_user",
      "place_order",
      "search_products",
    ]);
    expect(byName.get_user).toEqual({
      name: "get_user",
      description: "Look up a user by id.",
      parameters: {
        type: "object",
        properties: { user_id: { type: "string", description: 'The id of the user, e.g. "U1".' } },
        required: ["user_id"],
        additionalProperties: false,
      },
    });
    expect(byName.search_products?.description).toBe("Search the catalog by name.");
    expect(byName.search_products?.parameters.properties).toMatchObject({
      query: { type: "string", description: "Case-insensitive substring of the product name." },
      max_results: { type: "integer", description: "At most this many products are returned." },
      in_stock_only: { type: ["boolean", "null"], description: "Only products with stock left." },
    });
    expect(byName.place_order?.parameters.properties.shipping).toEqual({
      type: "string",
      enum: ["standard", "express"],
      description: "Shipping speed.",
    });
    expect(byName.place_order?.parameters.required).toEqual(["user_id", "product_ids"]);
  });

  it("includes inherited and static methods, excludes private names and properties", async () => {
    const source = [
      "class Base:",
      "    def ping(self) -> str:",
      "        '''Say pong.'''",
      "        return 'pong'",
      "class Env(Base):",
      "    @staticmethod",
      "    def add(a: int, b: int) -> int:",
      "        return a + b",
      "    @property",
      "    def total(self): return 1",
      "    def _hidden(self): pass",
      "    def __repr__(self): return 'Env'",
    ].join("\n");
    const found = await tools(source);
    expect(found.map((t) => t.function.name)).toEqual(["ping", "add"]);
    expect(found[1]?.function.parameters.required).toEqual(["a", "b"]);
  });
});

describe("analyze", () => {
  it("reports syntax errors with line and column", async () => {
    const result = await runner.analyze({
      source: "class Env:\n    def f(self):\n        return (1,\n",
      className: "Env",
    });
    expect(result.ok && result.value.syntaxErrors[0]).toMatchObject({ line: 3, column: 16 });
    expect(result.ok && result.value.classFound).toBe(false);
  });

  it("reports the class, its public methods, forbidden imports and async code", async () => {
    const source =
      "import os, socket\nfrom subprocess import run\nimport ctypes.util\nx = __import__('urllib.request')\nclass Env:\n    async def fetch(self): pass\n    def go(self): pass\n";
    const result = await runner.analyze({ source, className: "Env" });
    expect(result).toMatchObject({
      ok: true,
      value: {
        syntaxErrors: [],
        classFound: true,
        classes: ["Env"],
        publicMethods: ["fetch", "go"],
        hasAsync: true,
        forbiddenImports: [
          { module: "socket", line: 1 },
          { module: "subprocess", line: 2 },
          { module: "ctypes.util", line: 3 },
          { module: "urllib.request", line: 4 },
        ],
      },
    });
  });

  it("reports a missing class and fails extractTools clearly", async () => {
    expect(await runner.analyze({ source: "class A: pass", className: "B" })).toMatchObject({
      ok: true,
      value: { classFound: false, classes: ["A"] },
    });
    expect(await runner.extractTools("class A: pass", "B")).toMatchObject({
      ok: false,
      error: { code: "USER_CODE_ERROR" },
    });
    expect(await runner.extractTools("def (", "B")).toMatchObject({
      ok: false,
      error: { code: "USER_CODE_ERROR", message: expect.stringContaining("SyntaxError") as string },
    });
  });

  it("rejects malformed input", async () => {
    // @ts-expect-error: source must be a string
    expect(await runner.analyze({ source: 1, className: "A" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
  });
});

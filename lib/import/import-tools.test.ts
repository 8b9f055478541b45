/**
 * Tool schemas on import come from the analysis of the code: the file's own `tools` are compared
 * with it (each disagreement a located warning) and never used; a file or code tool name that is
 * not a Python name refuses the import with its location. Through readImport, with `analyze` faked
 * at the sandbox boundary (the DB tests run the real one).
 */
import { describe, expect, it } from "vitest";
import { ok } from "../core/result";
import type { AnalyzeFn } from "./build-plan";
import { formatImportError } from "./import.schema";
import { readImport } from "./read-import";

const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
) => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required } },
});

const CODE_TOOLS = [
  tool("add_note", "Add a note.", { key: { type: "string" }, text: { type: "string" } }, ["key", "text"]),
  tool("list_notes", "List notes."),
];
const analyzeWith =
  (tools: unknown[]): AnalyzeFn =>
  () =>
    Promise.resolve(ok({ syntaxErrors: [], classFound: true, tools }));

function files(tools?: unknown[]) {
  const env = {
    notes: {
      env_id: "notes",
      env_class_name: "Notes",
      env_class_code: "class Notes: ...",
      ...(tools ? { tools } : {}),
    },
  };
  return [{ name: "env_metadata.json", text: JSON.stringify(env, null, 2) }];
}

describe("tool schemas on import", () => {
  it("are the code's, and each way the file disagrees is a located warning", async () => {
    const fileTools = [
      tool("add_note", "Adds a note.", { key: { type: "string" }, text: { type: "integer" } }, ["key"]),
      tool("rm_everything", "Not in the class."),
    ];
    const plan = await readImport(files(fileTools), analyzeWith(CODE_TOOLS));
    if (!plan.ok) throw new Error(formatImportError(plan.error));
    expect(plan.value.environments[0]?.tools).toEqual(CODE_TOOLS);
    expect(plan.value.warnings.map(formatImportError)).toEqual([
      'env_metadata.json:2, record notes, field tools.0: tool "add_note" differs from the code in description, parameter text, required; the code\'s schema is used',
      'env_metadata.json:2, record notes, field tools.1: tool "rm_everything" is not a method of Notes; it is left out',
      'env_metadata.json:2, record notes, field tools: method "list_notes" of Notes is missing from the file\'s tools; it is a tool',
    ]);
  });

  it("agree when only the order of keys differs, and without a file list there is nothing to compare", async () => {
    const reordered = CODE_TOOLS.map((t) => ({ function: { ...t.function }, type: t.type }));
    for (const input of [files(reordered), files()]) {
      const plan = await readImport(input, analyzeWith(CODE_TOOLS));
      expect(plan.ok && plan.value.warnings).toEqual([]);
    }
  });

  const ATTACK = "x(self) -> str:  #\\\n    __import__('os').system('id')  #\\\n    def y";
  it.each([
    ["a file tool name", [tool(ATTACK, "d")], "field tools.0.function.name: tool name"],
    [
      "a file parameter name",
      [tool("add_note", "d", { [ATTACK]: {} })],
      "field tools.0.function.parameters.properties: tool add_note: parameter name",
    ],
    ["a bare file tool's name", [{ name: "not a name", description: "d" }], "field tools.0.name: tool name"],
  ])("refuse %s that is not a Python name, with its location", async (_what, fileTools, located) => {
    const plan = await readImport(files(fileTools), analyzeWith(CODE_TOOLS));
    expect(plan.ok).toBe(false);
    if (!plan.ok)
      expect(formatImportError(plan.error)).toContain(`env_metadata.json:2, record notes, ${located}`);
  });

  it("refuse code whose methods the exports could not name (`def café`)", async () => {
    const plan = await readImport(files(), analyzeWith([tool("caf\u00e9", "d")]));
    expect(!plan.ok && formatImportError(plan.error)).toBe(
      'env_metadata.json:2, record notes, field env_class_code: code defines a tool name "café" is not a Python identifier (ASCII letters, digits and _, not starting with a digit)',
    );
  });
});

// The per-tool validators the harness prepares at load (validate.compile_arguments) must give
// exactly what the reference check_arguments gives, problems and messages included.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../options";
import { PYTHON_DIR } from "../paths";

const SCRIPT = `
import itertools, json, sys
sys.path.insert(0, ${JSON.stringify(PYTHON_DIR)})
from validate import check_arguments, compile_arguments
S = {"type": "string", "description": "d"}
schemas = [
    {"type": "object", "properties": {"a": S}, "required": ["a"], "additionalProperties": False},
    {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": ["number", "null"]}}},
    {"type": "object", "properties": {"m": {"type": "string", "enum": ["x", "y"]}, "f": {"type": "boolean"}}, "required": ["m"]},
    {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "string"}}, "q": {"type": "array", "items": {"type": "integer"}}}},
    {"type": "object", "properties": {"o": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "d": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]}}},
    {"type": "object", "properties": {"e": {"enum": [1, True, "1"]}, "n": {"type": "null"}, "nested": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}},
]
values = ["x", "z", 1, 1.5, True, False, None, [], ["a", "b"], [1, 2], ["a", 1], [True], [[1]], [["a"]], {}, {"k": 1}, {"k": "1"}]
cases = mismatches = problems = 0
for schema in schemas:
    compiled = compile_arguments(schema)
    names = list(schema["properties"]) + ["unknown"]
    for name, value in itertools.product(names, values):
        for args in ({name: value}, {}, "not an object"):
            expected, got = check_arguments(schema, args), compiled(args)
            cases += 1
            problems += bool(expected)
            if expected != got:
                mismatches += 1
                print("MISMATCH", json.dumps(schema), repr(args), expected, got, file=sys.stderr)
print(json.dumps({"cases": cases, "mismatches": mismatches, "with_problems": problems}))
`;

describe("prepared argument validators", () => {
  it("agree with the reference validator on every schema shape and value kind", () => {
    const out = execFileSync(resolveOptions().python, ["-I", "-c", SCRIPT], { encoding: "utf8" });
    const result = JSON.parse(out.trim()) as { cases: number; mismatches: number; with_problems: number };
    expect(result.mismatches).toBe(0);
    expect(result.cases).toBeGreaterThan(500);
    // Both outcomes are exercised: a validator that accepted (or rejected) everything would fail.
    expect(result.with_problems).toBeGreaterThan(100);
    expect(result.cases - result.with_problems).toBeGreaterThan(100);
  });
});

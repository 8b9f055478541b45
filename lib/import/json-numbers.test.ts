/**
 * Numbers an import would change silently are refused with their file, line and JSON path:
 * `1e999` (stored as null), integers beyond ±(2^53 − 1) (rounded) and negative zero (stored as 0).
 * Every other number is kept, and digits inside strings are text.
 */
import { describe, expect, it } from "vitest";
import { ok } from "../core/result";
import { formatImportError } from "./import.schema";
import { parseJsonLocated } from "./json-locate";
import { findNumberHazard, numberProblem } from "./json-numbers";
import { readImport } from "./read-import";

describe("numbers on import", () => {
  it.each([
    ["1e999", "beyond the 64-bit float range and would be stored as null"],
    ["-1.8e308", "beyond the 64-bit float range"],
    ["9007199254740992", "beyond ±9007199254740991 (2^53 − 1) and would lose precision"],
    ["-12345678901234567891", "would lose precision"],
    ["-0.0", "negative zero"],
    ["-0e5", "negative zero"],
    ["-1e-400", "negative zero"],
  ])("refuses %s", (token, problem) => {
    expect(numberProblem(token)).toContain(problem);
  });

  it.each([
    "0",
    "-0",
    "9007199254740991",
    "-9007199254740991",
    "1.7976931348623157e308",
    "1e-400",
    "0.1",
    "12345678901234567891.5",
  ])("keeps %s", (token) => {
    expect(numberProblem(token)).toBeNull();
  });

  it("names the JSON path, through escaped keys and arrays; digits in strings are text", () => {
    const text = '{"a\\"b": [0, "12345678901234567891", {"c": 1, "1e999": [true, null, 1e999]}]}';
    expect(findNumberHazard(text)).toMatchObject({ path: ['a"b', 2, "1e999", 2], token: "1e999" });
    expect(findNumberHazard('{"d": "2024-01-05", "x": -0.5, "s": "-0.0 1e999"}')).toBeNull();
  });

  it("refuses the file with its line, record and field", () => {
    const text =
      '[\n  {"task_id": "a", "init_config": {"n": 1}},\n  {"task_id": "b",\n   "init_config": {"accounts": [{"balance": 1e999}]}}\n]';
    const parsed = parseJsonLocated(text, "scenarios.json");
    expect(!parsed.ok && formatImportError(parsed.error)).toBe(
      "scenarios.json:4, record 1, field init_config.accounts.0.balance: the number 1e999 is beyond the 64-bit float range and would be stored as null (line 4, column 45)",
    );
    const meta = parseJsonLocated('{"envstudio": {"version": 9007199254740993}}', "meta.json", false);
    expect(!meta.ok && formatImportError(meta.error)).toMatch(
      /^meta\.json:1, field envstudio\.version: the integer 9007199254740993 is beyond/,
    );
  });

  it("refuses an import whose scenario holds one, before anything is analysed", async () => {
    const env = { notes: { env_id: "notes", env_class_name: "Notes", env_class_code: "class Notes: ..." } };
    const scenarios = `[\n{"env_id": "notes", "task_id": "n1", "task": "t", "init_config": {"id": 12345678901234567891}}\n]`;
    const plan = await readImport(
      [
        { name: "env_metadata.json", text: JSON.stringify(env) },
        { name: "scenario_metadata.json", text: scenarios },
      ],
      () => Promise.resolve(ok({ syntaxErrors: [], classFound: true, tools: [] })),
    );
    expect(!plan.ok && formatImportError(plan.error)).toMatch(
      /^scenario_metadata\.json:2, record 0, field init_config\.id: the integer 12345678901234567891 is beyond/,
    );
  });
});

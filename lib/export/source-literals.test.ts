/**
 * The quoting functions against the readers themselves: python3's `ast.literal_eval`, PyYAML,
 * tomllib and the OmegaConf string rules (testing/upstream/omegaconf_strings.py) give back exactly
 * the string that was quoted, for every code point below U+0300, line and paragraph separators,
 * astral characters and lone surrogates; and the identifier rule agrees with Python's own.
 */
import { describe, expect, it } from "vitest";
import { omegaConfString, tomlString, yamlFlow, yamlString } from "./config-source";
import { isPyIdentifier, pyDocstring, pyString } from "./python-source";
import { UPSTREAM, runPython } from "./testing/run-python";

const EVERY_LOW = Array.from({ length: 0x300 }, (_, c) => String.fromCharCode(c)).join("");
const STRINGS = [
  EVERY_LOW,
  '"""',
  "'''",
  "\\",
  'a\\"b',
  "\u2028\u2029\u0085\ufeff\ufffe\uffff",
  "\u{1F600}\u{10FFFF}",
  "${x} \\${x} \\\\${x} \\\\\\${x} $${x} \\ \\\\ $",
];
const LONE = ["\ud800", "x\udfffy"];

/** Runs `code` in python3 with `values` as `V` (a JSON list) and returns what it prints as JSON. */
const python = <T>(code: string, values: unknown): T =>
  JSON.parse(
    runPython(
      ["-c", `import ast, json, sys, tomllib, yaml\nV = json.load(sys.stdin)\n${code}`],
      JSON.stringify(values),
    ),
  ) as T;

describe("generated literals", () => {
  it("Python: pyString and pyDocstring evaluate to the string", () => {
    const all = [...STRINGS, ...LONE];
    const sources = all.flatMap((s) => [pyString(s), pyDocstring([s]), pyDocstring([s, s], "    ", true)]);
    expect(sources.every((src) => /^[\x20-\x7e\n]*$/.test(src))).toBe(true);
    const back = python<string[]>("print(json.dumps([ast.literal_eval(s) for s in V]))", sources);
    expect(back).toEqual(all.flatMap((s) => [s, s, `${s}\n    ${s}\n    `]));
  });

  it("YAML: yamlString and yamlFlow load to the value with PyYAML", () => {
    const value = {
      strings: [...STRINGS, ...LONE],
      numbers: [0, -1, 2.5, 1e-7, 1e21, 1.7976931348623157e308],
      flags: [true, false, null],
    };
    const source = `a: ${yamlString(STRINGS.join("|"))}\nb: ${yamlFlow(value)}\n`;
    expect(python("print(json.dumps(yaml.safe_load(V)))", source)).toEqual({
      a: STRINGS.join("|"),
      b: value,
    });
  });

  it("OmegaConf: omegaConfString gives back every string, `${` included", () => {
    const quoted = STRINGS.map(omegaConfString);
    const back = python<string[]>(
      `sys.path.insert(0, ${JSON.stringify(UPSTREAM)})\nfrom omegaconf_strings import resolve\nprint(json.dumps([resolve(s) for s in V]))`,
      quoted,
    );
    expect(back).toEqual(STRINGS);
    expect(quoted[STRINGS.length - 1]).toBe(
      "\\${x} \\\\\\${x} \\\\\\\\\\${x} \\\\\\\\\\\\\\${x} $\\${x} \\ \\\\ $",
    );
  });

  it("TOML: tomlString loads to the string with tomllib, and refuses a lone surrogate", () => {
    const source = STRINGS.map((s, i) => `k${i} = ${tomlString(s)}`).join("\n");
    expect(python("print(json.dumps(list(tomllib.loads(V).values())))", source)).toEqual(STRINGS);
    for (const s of LONE) expect(() => tomlString(s)).toThrow("unpaired UTF-16 surrogate");
  });

  it("names: the identifier rule is Python's (ASCII, not a keyword)", () => {
    const names = [
      "a",
      "_",
      "match",
      "case",
      "type",
      "None",
      "class",
      "__debug__",
      "caf\u00e9",
      "1a",
      "a-b",
      "",
      "a b",
      "x\u2028",
    ];
    const python3 = python<boolean[]>(
      "import keyword\nprint(json.dumps([n.isascii() and n.isidentifier() and not keyword.iskeyword(n) and n != '__debug__' for n in V]))",
      names,
    );
    expect(names.map(isPyIdentifier)).toEqual(python3);
  });
});

/**
 * The one way a string reaches a generated YAML or TOML file: as an escaped double-quoted scalar
 * (ascii-escape.ts), never spliced. PyYAML reads a raw U+0085 or U+2028 inside quotes as a line
 * break and refuses DEL and C1 characters; TOML refuses raw control characters; so JSON.stringify,
 * which leaves those raw, is not a YAML or TOML writer.
 */
import { escapeAscii, hasLoneSurrogate } from "./ascii-escape";
import { UnsafeSourceError } from "./python-source";

/** A YAML double-quoted scalar whose value is exactly `value` (YAML 1.1 and 1.2 readers). */
export const yamlString = (value: string): string => `"${escapeAscii(value, true)}"`;

/** Words a YAML 1.1 reader (PyYAML) turns into a boolean or null when they stand unquoted. */
const YAML_WORDS = /^(?:y|n|yes|no|on|off|true|false|null)$/i;

/** A name left bare when YAML reads it back as the same string (`name: counter`), quoted otherwise. */
export const yamlPlain = (name: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !YAML_WORDS.test(name) ? name : yamlString(name);

/**
 * `value` as OmegaConf must see it to give `value` back. verl loads tool_config.yaml with
 * `OmegaConf.load` and `to_container(resolve=True)` (verl/tools/utils/tool_registry.py), which
 * resolves `${…}` in every string: a tool description holding `${oc.env:HF_TOKEN}` would put the
 * trainer's secret into the prompt, and a trainer that registers an `eval` resolver would run it.
 * OmegaConf 2.1–2.3 (omegaconf/grammar/OmegaConfGrammarLexer.g4, grammar_visitor.py `_unescape`)
 * reads `\${` as a literal `${`, and 2k+1 backslashes before `${` as k backslashes and a literal
 * `${`; backslashes anywhere else stay as written.
 */
export const omegaConfString = (value: string): string =>
  value.replace(/(\\*)\$\{/g, (_match, slashes: string) => `${slashes}${slashes}\\\${`);

/** A YAML float must have a dot for PyYAML (`1e-7` reads as a string there; `1.0e-7` does not). */
function yamlNumber(value: number, where: string): string {
  if (!Number.isFinite(value)) throw new UnsafeSourceError(where, `${value} is not a finite number`);
  const json = JSON.stringify(value);
  return /e/.test(json) && !json.includes(".") ? json.replace("e", ".0e") : json;
}

/**
 * A JSON value as one line of YAML flow syntax, laid out as JSON.stringify lays it out; strings go
 * through yamlString (and omegaConfString first when the file is read by OmegaConf).
 */
export function yamlFlow(value: unknown, options: { omegaConf?: boolean; where?: string } = {}): string {
  const where = options.where ?? "value";
  const string = (s: string) => yamlString(options.omegaConf ? omegaConfString(s) : s);
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return yamlNumber(value, where);
  if (typeof value === "string") return string(value);
  if (Array.isArray(value)) return `[${value.map((v) => yamlFlow(v, options)).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    // Keys are never resolved by OmegaConf: only values are interpolated.
    return `{${entries.map(([k, v]) => `${yamlString(k)}:${yamlFlow(v, options)}`).join(",")}}`;
  }
  throw new UnsafeSourceError(where, `a ${typeof value} has no YAML spelling`);
}

/** A TOML basic string whose value is exactly `value` (TOML has no `\x` escape; `\u00HH` instead). */
export function tomlString(value: string, where = "value"): string {
  if (hasLoneSurrogate(value))
    throw new UnsafeSourceError(where, "holds an unpaired UTF-16 surrogate, which TOML cannot encode");
  return `"${escapeAscii(value, false)}"`;
}

/**
 * TRL `environment_factory` wrapper (huggingface/trl f2cd577, trl/trainer/grpo_trainer.py): a
 * no-argument class whose public methods other than `reset` and `get_reward` are the tools. TRL
 * renders each tool with transformers' `get_json_schema` (utils/chat_template_utils.py), so the
 * annotations are the ones it renders faithfully: `list[str]` (a bare `list` renders as an object),
 * `Literal[...]` for enums, `X | None` only where null is allowed. A parameter the model may omit
 * defaults to a sentinel, so the environment method's own default applies (or None for a
 * nullable parameter without one). `reset(**columns)` loads the
 * scenario and returns None: the dataset prompt already holds the task, and TRL appends a returned
 * string to it. `get_reward()` scores the checklist on the final state (environment-owned reward).
 */
import type { OpenAiTool } from "../export.schema";
import { UnsafeSourceError, pyDocstring, pyIdentifier, pyLiteral, pyString } from "../python-source";
import { nullableProperties, nullableRequired, singleTypeTool } from "./single-type-schema";

type Prop = {
  type?: string;
  description?: string;
  enum?: unknown[];
  items?: Prop;
  additionalProperties?: Prop | boolean;
};

const SCALARS: Record<string, string> = { string: "str", integer: "int", number: "float", boolean: "bool" };

/** The Python annotation transformers turns back into this property's JSON schema. */
export function pyType(prop: Prop, where = "parameter"): string {
  if (Array.isArray(prop.enum) && prop.enum.length)
    return `Literal[${prop.enum.map((v) => pyLiteral(v, `${where} enum value`)).join(", ")}]`;
  if (prop.type === "array")
    return `list[${prop.items && typeof prop.items === "object" ? pyType(prop.items, where) : "Any"}]`;
  if (prop.type === "object") {
    const extra = prop.additionalProperties;
    return extra && typeof extra === "object" ? `dict[str, ${pyType(extra, where)}]` : "dict";
  }
  return SCALARS[prop.type ?? ""] ?? "Any";
}

/** Characters Python's `str.isspace` and `re` `\s` count as whitespace and JavaScript's `\s` does not. */
const PYTHON_ONLY_SPACE = new Set([0x1c, 0x1d, 0x1e, 0x1f, 0x85]);

/**
 * One docstring line: get_json_schema reads a parameter's description up to the next line break,
 * so every character Python treats as whitespace or a line break (U+2028, U+0085, \x1c…) becomes
 * one space. Quoting is pyDocstring's.
 */
export const docLine = (text: string) =>
  Array.from(text, (ch) => (PYTHON_ONLY_SPACE.has(ch.charCodeAt(0)) ? " " : ch))
    .join("")
    .replace(/\s+/g, " ")
    .trim();

/** TRL exposes every public method but these two as tools, so a tool cannot be named so. */
const TRL_RESERVED_TOOLS = new Set(["reset", "get_reward"]);

function toolName(name: string): string {
  pyIdentifier(name, "tool name");
  if (TRL_RESERVED_TOOLS.has(name))
    throw new UnsafeSourceError(
      "tool name",
      `${JSON.stringify(name)} is a TRL environment method, not a tool`,
    );
  return name;
}

/** `self` is the forwarder's own; a `__name` inside a class body is mangled, so TRL could not pass it. */
function parameterName(tool: string, name: string): string {
  const what = `tool ${tool}: parameter name`;
  pyIdentifier(name, what);
  if (name === "self" || (name.startsWith("__") && !name.endsWith("__")))
    throw new UnsafeSourceError(what, `${JSON.stringify(name)} cannot be a parameter of a method`);
  return name;
}

export function forwarder(rawTool: OpenAiTool): string {
  const tool = singleTypeTool(rawTool);
  const name = toolName(tool.function.name);
  const params = tool.function.parameters as { properties?: Record<string, Prop>; required?: string[] };
  const props = Object.entries(params.properties ?? {});
  for (const [n] of props) parameterName(name, n);
  const required = new Set(params.required ?? []);
  const nullable = nullableProperties(rawTool);
  const noneWhenOmitted = new Set(nullableRequired(rawTool));
  // Required parameters first: Python forbids a required parameter after a defaulted one.
  const ordered = [...props.filter(([n]) => required.has(n)), ...props.filter(([n]) => !required.has(n))];
  const signature = ordered.map(([n, p]) => {
    const annotation = `${pyType(p, `tool ${name}: parameter ${n}`)}${nullable.has(n) ? " | None" : ""}`;
    if (required.has(n)) return `${n}: ${annotation}`;
    return `${n}: ${annotation} = ${noneWhenOmitted.has(n) ? "None" : "_UNSET"}`;
  });
  const args = ordered.map(
    ([n, p]) =>
      `    ${n}: ${docLine(typeof p.description === "string" && p.description ? p.description : n)}`,
  );
  const doc = [docLine(tool.function.description) || name, ...(args.length ? ["", "Args:", ...args] : [])];
  const call = `{${ordered.map(([n]) => `${pyString(n)}: ${n}`).join(", ")}}`;
  return [
    `    def ${name}(self${signature.map((s) => `, ${s}`).join("")}) -> str:`,
    `        ${pyDocstring(doc, "        ", true)}`,
    `        return self._call(${pyString(name)}, ${call})`,
  ].join("\n");
}

export const trlClassName = (className: string) => pyIdentifier(`${className}TrlEnv`, "class name");

export function trlWrapper(className: string, tools: OpenAiTool[], pkg: string): string {
  const cls = trlClassName(className);
  pyIdentifier(pkg, "package name");
  return `"""TRL environment_factory wrapper (generated by EnvStudio).

    from trl import GRPOTrainer
    from ${pkg}.trl_env import ${cls}
    GRPOTrainer(..., train_dataset=<trl_dataset.jsonl>, environment_factory=${cls})

get_reward() is the environment-owned reward (TRL >= cfef01a91); with an older TRL pass
reward_funcs=[checklist_reward] instead. Dataset columns: task_id, split, prompt (the task).
"""
import json
from typing import Any, Literal

try:
    from .runtime import Episode, load_scenarios
except ImportError:
    from runtime import Episode, load_scenarios

_SCENARIOS = load_scenarios()
# Default of parameters the model may omit: left out of the call so the method's own default applies.
_UNSET = object()


class ${cls}:
    def __init__(self):
        self._episode = None

    def reset(self, **kwargs) -> None:
        # The dataset prompt is the task; returning it here would make TRL append it a second time.
        self._episode = Episode(_SCENARIOS[kwargs["task_id"]])
        return None

    def get_reward(self) -> float:
        _, reward = self._episode.finish()
        return reward

    def _call(self, name: str, arguments: dict) -> str:
        result, _ = self._episode.call(name, {k: v for k, v in arguments.items() if v is not _UNSET})
        return json.dumps(result, default=str)

${tools.map(forwarder).join("\n\n")}


def checklist_reward(environments, **kwargs) -> list[float]:
    """Reward function for TRL versions without get_reward; do not pass it alongside get_reward."""
    return [env.get_reward() for env in environments]
`;
}

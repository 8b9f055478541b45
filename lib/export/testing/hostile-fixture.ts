/**
 * An export input whose every free-text field is an attempt to break out of the literal it lands
 * in (quotes, triple quotes, backslash continuations, `#`, U+2028, U+0085, NUL, OmegaConf `${…}`,
 * YAML and TOML specials): if any of it became code, importing the export would create `marker`.
 * Names are valid identifiers (soft keywords included); hostile names are in HOSTILE_NAMES.
 */
import type { ChatMessage } from "../../llm/llm.schema";
import type { ExportEnvironment, ExportInput, ExportScenario, OpenAiTool } from "../export.schema";
import { iterate } from "./fixture";

/** Every payload, as Python, that creates `marker` when run. */
export const payloads = (marker: string) => {
  const run = `__import__('os').system('touch ${marker}')`;
  const write = `open('${marker}', 'w').close()`;
  return { run, write };
};

export function hostileStrings(marker: string): string[] {
  const { run, write } = payloads(marker);
  return [
    `"""\n${run}\n"""`,
    `x")\n${run}\n#`,
    `'''\n${write}\n'''`,
    `ends in a quote "`,
    `ends in a backslash \\`,
    `continued \\\n${run}`,
    `# comment \\\n${write}`,
    `line separator\u2028${run}`,
    `next line\u0085${write}`,
    `nul\u0000byte`,
    `carriage\r${run}`,
    `\\N{BULLET} \\x41 \\u0041 stay text`,
    `\${oc.env:HOME} \\\${escaped} \\\\\${pair} $\${dollar}`,
    `yaml: [ { & * ! | > % @ \` --- ...`,
    `del\u007f bell\u0007 escape\u001b`,
    `astral \u{1F600} and \u00e9`,
  ];
}

/**
 * Tool and parameter names that are not Python names; each one must make every export refuse. The
 * first is the attack that worked on the TRL wrapper when it interpolated names: `#\` ends each
 * line in a comment where the name is a `def`, and continues the string where it is `_call("…")`,
 * so the class body ran `__import__('os').system(…)` when trl_env.py was imported.
 */
export const hostileNames = (marker: string) => [
  `x(self) -> str:  #\\\n        return ''  #\\\n    ${payloads(marker).run}  #\\\n    def y`,
  "add\u2028__import__('os')",
  "class",
  "None",
  "1st",
  "caf\u00e9",
  "",
];

const SOURCE = `class Hostile:
    def __init__(self, init_config=None):
        self.notes = {}

    def match(self, type: str, note: str = "", level: int = 0) -> dict:
        """Soft keywords are valid names."""
        self.notes[type] = note
        return {"success": True, "data": level}
`;

export function hostileEnvironment(marker: string): ExportEnvironment {
  const h = hostileStrings(marker);
  const tool: OpenAiTool = {
    type: "function",
    function: {
      name: "match",
      description: h.join(" | "),
      parameters: {
        type: "object",
        properties: {
          type: { type: "string", enum: h, description: h[1] },
          note: { type: "string", description: h[0] },
          level: { type: "number", enum: [0, -1, 2.5, 1e-7, 1e21] },
        },
        required: ["type"],
      },
    },
  };
  return {
    envId: "hostile",
    name: h[1] ?? "",
    description: h.join("\n"),
    domain: h[13] ?? "",
    className: "Hostile",
    source: SOURCE,
    sourceHash: "2".repeat(64),
    version: 1,
    tools: [tool],
    stateSchema: h,
    rules: h,
    operations: [{ operation_name: "match", operation_description: h[0] }],
    metadata: { note: h[2] },
  };
}

function messages(marker: string, task: string): ChatMessage[] {
  const h = hostileStrings(marker);
  return [
    { role: "system", content: h[0] ?? "" },
    { role: "user", content: task },
    {
      role: "assistant",
      content: null,
      reasoning: h[5],
      toolCalls: [{ id: "c1", name: "match", arguments: JSON.stringify({ type: h[3], note: h[6] }) }],
    },
    { role: "tool", toolCallId: "c1", content: h[7] ?? "" },
    { role: "assistant", content: h[8] ?? "" },
  ];
}

function hostileScenario(marker: string, taskId: string, split: "TRAIN" | "TEST"): ExportScenario {
  const h = hostileStrings(marker);
  const task = h.join(" / ");
  return {
    envId: "hostile",
    taskId,
    split,
    task,
    initialState: Object.fromEntries(h.map((s, i) => [s, [s, i]])),
    checklist: h,
    checks: h.map((s) => ({
      checkItem: s,
      code: "def check_func(final_state):\n    return True\n",
      validatorVersion: 1,
    })),
    goldCalls: [{ name: "match", arguments: { type: h[3], note: h[4] } }],
    trajectories: [
      { id: `t-${taskId}`, model: h[9] ?? "", mode: "fc", reward: 1, messages: messages(marker, task) },
    ],
  };
}

/** Short enough to name a file (LLaMA-Factory's); U+0085 and DEL are what PyYAML misreads or refuses raw. */
export const hostileDatasetName = (marker: string) => `next\u0085${payloads(marker).write} del\u007f`;

export function hostileInput(marker: string, environments = [hostileEnvironment(marker)]): ExportInput {
  const h = hostileStrings(marker);
  return {
    dataset: {
      name: hostileDatasetName(marker),
      version: 1,
      description: h.join("\n"),
      seed: 3,
      testRatio: 0.5,
      createdAt: "2026-01-01T00:00:00.000Z",
      stats: { note: h[1] },
    },
    environments,
    scenarios: iterate([hostileScenario(marker, "h-1", "TRAIN"), hostileScenario(marker, "h-2", "TEST")]),
  };
}

/**
 * ScenGenerator step 3b (spec §5.3): one `check_func(final_state)` per checklist item. The code is
 * checked in the sandbox, not just ast-parsed: it must define exactly `def check_func(final_state)`
 * and run on the initial state without raising and return a bool (it may read `initial_state`).
 * EnvScaler kept "" when generation failed, which then scored 0 forever (§12.1 #10).
 */
import { type Result, err, ok } from "../../core/result";
import { chatParsed, extractPythonBlock } from "../../llm";
import type { JsonObject } from "../../sandbox";
import { type EnvironmentContext, type ScenStageDeps, type ScenStageResult, pretty, scenTag } from "./deps";

const SYSTEM = `${scenTag("scen_check_func")}
You write one verification function for one checklist item. Rules:
- follow the field names, structure and value formats of the initial state;
- for random or time-dependent fields (generated ids, timestamps) check existence and type only;
- for explicit target values require exact equality; for free-form values check existence and basic validity;
- consult the global \`initial_state\` only to detect a change (e.g. "added" = absent initially, present finally);
- implement only this item; return True or False; never modify the inputs;
- signature exactly: def check_func(final_state)
Answer in two sections:
# Analysis
<your reasoning>
# Function
\`\`\`python
def check_func(final_state):
    ...
\`\`\``;

const SIGNATURE = /^def check_func\(\s*final_state\s*\)\s*(->\s*bool\s*)?:/m;

export async function verifyCheckFunc(
  code: string,
  initialState: JsonObject,
  deps: Pick<ScenStageDeps, "sandbox">,
): Promise<Result<string, string>> {
  if (!SIGNATURE.test(code))
    return err("the code must define exactly `def check_func(final_state):` at the top level");
  const run = await deps.sandbox.runChecks({ checks: [code], initialState, finalState: initialState });
  if (!run.ok) return err(`running the function failed: ${run.error.code}: ${run.error.message}`);
  const [result] = run.value;
  if (result && "error" in result)
    return err(`on the initial state the function raised or misbehaved: ${result.error}`);
  return ok(code);
}

export async function generateCheckFunc(
  input: { env: EnvironmentContext; initialState: JsonObject; task: string; item: string },
  deps: ScenStageDeps,
): ScenStageResult<string> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      temperature: 0,
      cacheSalt: deps.cacheSalt,
      purpose: `check function: ${input.item.slice(0, 60)}`,
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `# Environment\n${input.env.introduction}\n\n# Initial state (schema reference and the state before any change)\n${pretty(input.initialState)}\n\n# Task\n${input.task}\n\n# Check item\n${input.item}`,
        },
      ],
    },
    async (r) => {
      // The last fenced block, not the "# Function" section: a column-0 "# comment" in the code would end a section.
      const code = extractPythonBlock(r.content);
      return code.ok ? verifyCheckFunc(code.value, input.initialState, deps) : code;
    },
  );
  return reply.ok ? ok(reply.value.value) : reply;
}

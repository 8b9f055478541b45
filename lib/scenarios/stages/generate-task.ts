/**
 * ScenGenerator step 2 (spec §5.2): one realistic, challenging task per initial state that must
 * change the state and is grounded in it. Output `# Analysis` then `# Task`; a task shorter than
 * `minWords` is re-asked (EnvScaler asks for ≥ 50 words but never checked).
 */
import { err, ok } from "../../core/result";
import { chatParsed, extractSection } from "../../llm";
import type { JsonObject } from "../../sandbox";
import { type EnvironmentContext, type ScenStageDeps, type ScenStageResult, pretty, scenTag } from "./deps";

const SYSTEM = `${scenTag("scen_task")}
You are a task designer writing one task for an agent that operates this environment through its tools; executing it is someone else's job. The task must be:
- realistic for the environment and its current data, with a plausible business goal;
- feasible: grounded in the initial state below (never act on what does not exist) and achievable with the listed operations; give identifiers the agent could not discover, but do not over-specify — it should need query tools;
- state-changing: not query-only;
- challenging and compositional: several distinct sub-tasks touching several objects, attributes or conditions, each needing multiple calls; at least 50 words;
- clear: concise, unambiguous, goals only (no step-by-step instructions, no system-generated values such as timestamps).
Answer in two sections:
# Analysis
<your reasoning>
# Task
<the task text only>`;

export async function generateTask(
  input: { env: EnvironmentContext; initialState: JsonObject; minWords: number },
  deps: ScenStageDeps,
): ScenStageResult<string> {
  const { env } = input;
  const ops = env.operations
    .map((o, i) => `${i + 1}. ${o.operation_name} (${o.operation_type}): ${o.operation_description}`)
    .join("\n");
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      temperature: 0.7,
      cacheSalt: deps.cacheSalt,
      purpose: "scenario task",
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `# Environment\n${env.introduction}\n\n# State definition\n${pretty(env.stateSchema)}\n\n# Operations\n${ops}\n\n# Rules\n${env.rules.map((r) => `- ${r}`).join("\n")}\n\n# Initial state\n${pretty(input.initialState)}`,
        },
      ],
    },
    (r) => {
      const task = extractSection(r.content ?? "", "Task")
        ?.replace(/^\*+|\*+$/g, "")
        .trim();
      if (!task) return err('no "# Task" section in the answer');
      const words = task.split(/\s+/).length;
      return words < input.minWords
        ? err(`the task has ${words} words; write at least ${input.minWords}`)
        : ok(task);
    },
  );
  return reply.ok ? ok(reply.value.value) : reply;
}

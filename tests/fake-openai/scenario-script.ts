/**
 * TEST AND DEMO ONLY. A scripted "LLM" for ScenGenerator, the proof's gold request and rollouts, answering
 * from a sample environment's hand-written scenarios (prisma/seed/samples): the k-th state and
 * task requests get sample scenario k mod n, so request N+1 repeats scenario 0 (a near-duplicate
 * task). Options plant bad validators and first-try format errors (re-asked).
 */
import type { Sample } from "@/prisma/seed/load-samples";
import { agentReply, isAgent, isUserSim, userReply } from "./rollout-script";
import { type ChatBody, type FakeReply, type Script, promptText, stageOf } from "./server";

export const ALWAYS_TRUE_CHECK = "def check_func(final_state):\n    return True\n";
export const UNSATISFIABLE_CHECK =
  "def check_func(final_state):\n    return final_state.get('no_such_container') == 'never'\n";

export type ScenarioScriptOptions = {
  /** Sample scenario index → an extra checklist item whose check passes on the initial state. */
  passesWithoutWork?: number;
  /** Sample scenario index → an extra checklist item no solution satisfies. */
  unsatisfiable?: number;
  /** Answer each stage's first request with an answer that must be re-asked. */
  formatErrorsFirst?: boolean;
};

const isReask = (body: ChatBody) =>
  body.messages.at(-1)?.content?.startsWith("Your previous answer could not be used") ?? false;

export function createScenarioScript(
  sample: Sample,
  options: ScenarioScriptOptions = {},
): Script & { counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  const faulted = new Set<string>();
  const scenarios = sample.scenarios;
  const byTask = (text: string) => scenarios.findIndex((s) => text.includes(s.task));
  const items = (i: number) => {
    const list = scenarios[i]!.checklist_with_func.map((c) => ({
      item: c.check_item.startsWith("Has") ? c.check_item : `Has ${c.check_item}`,
      code: c.check_func,
    }));
    if (options.passesWithoutWork === i)
      list.push({ item: "Has the desk been left tidy?", code: ALWAYS_TRUE_CHECK });
    if (options.unsatisfiable === i)
      list.push({ item: "Has the impossible container been filled?", code: UNSATISFIABLE_CHECK });
    return list;
  };
  const faultOnce = (stage: string, body: ChatBody, bad: FakeReply): FakeReply | null => {
    if (!options.formatErrorsFirst || isReask(body) || faulted.has(stage)) return null;
    faulted.add(stage);
    return bad;
  };
  const script = (body: ChatBody): FakeReply => {
    if (isUserSim(body)) return userReply(body, promptTask(body, scenarios));
    if (isAgent(body))
      return agentReply(
        body,
        scenarios[Math.max(0, byTask(body.messages[1]?.content ?? ""))]?.gold_calls ?? [],
      );
    const stage = stageOf(body) ?? "";
    // A re-ask repeats the same request: it does not advance the stage's counter.
    const n = isReask(body) ? (counts[stage] ?? 1) - 1 : (counts[stage] = (counts[stage] ?? 0) + 1) - 1;
    const text = promptText(body);
    switch (stage) {
      case "scen_state": {
        const state = scenarios[n % scenarios.length]!.init_config;
        return (
          faultOnce(stage, body, { content: JSON.stringify({ ...state, bogus_container: {} }) }) ?? {
            content: "```json\n" + JSON.stringify(state) + "\n```",
          }
        );
      }
      case "scen_task":
        return (
          faultOnce(stage, body, { content: "# Analysis\nshort\n# Task\nDo it." }) ?? {
            content: `# Analysis\nmulti-step\n# Task\n${scenarios[n % scenarios.length]!.task}`,
          }
        );
      case "scen_checklist": {
        const list = items(byTask(text)).map((c) => `- ${c.item}`);
        return (
          faultOnce(stage, body, {
            content: `# Analysis\nx\n# CheckList\n- Loan returned?\n${list.join("\n")}`,
          }) ?? { content: `# Analysis\nsplit\n# CheckList\n${list.join("\n")}` }
        );
      }
      case "scen_check_func": {
        const item = /# Check item\n(.*)/.exec(text)?.[1] ?? "";
        const code =
          items(byTask(text)).find((c) => c.item === item)?.code ??
          "def check_func(final_state):\n    return False\n";
        return (
          faultOnce(stage, body, {
            content: "# Function\n```python\ndef check(state):\n    return True\n```",
          }) ?? { content: `# Analysis\nexact\n# Function\n\`\`\`python\n${code}\`\`\`` }
        );
      }
      case "gold_calls":
        return {
          content: JSON.stringify({ analysis: "replay", calls: scenarios[byTask(text)]?.gold_calls ?? [] }),
        };
      default:
        return { content: `unscripted stage ${stage}` };
    }
  };
  return Object.assign(script, { counts });
}

function promptTask(body: ChatBody, scenarios: Sample["scenarios"]): string {
  const system = body.messages[0]?.content ?? "";
  return scenarios.find((s) => system.includes(s.task))?.task ?? "";
}

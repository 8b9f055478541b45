/**
 * ScenGenerator step 3a (spec §5.3): a checklist of independent "Has …" items, each verifiable
 * from the final state by one boolean expression. Items that do not start with "Has" are re-asked
 * rather than silently kept or dropped; an empty checklist is an error (EnvScaler divided by zero).
 */
import { err, ok } from "../../core/result";
import { chatParsed, extractSection } from "../../llm";
import type { JsonObject } from "../../sandbox";
import { type EnvironmentContext, type ScenStageDeps, type ScenStageResult, pretty, scenTag } from "./deps";

const SYSTEM = `${scenTag("scen_checklist")}
You write quality checklists for tasks. Produce a simple, uniformly phrased checklist that verifies the task was done, judged only from the final state of the system:
- items independent of each other, each starting with "Has";
- precise fields and exact values; split multi-field requirements into separate items;
- logical order; each item verifiable by one boolean expression over the final state.
Answer in two sections:
# Analysis
<your reasoning>
# CheckList
- Has …
- Has …`;

export function parseChecklist(
  text: string | null,
): { ok: true; value: string[] } | { ok: false; error: string } {
  const section = extractSection(text ?? "", "CheckList");
  if (section === null) return err('no "# CheckList" section in the answer');
  const items = section
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2).trim())
    .filter(Boolean);
  if (items.length === 0) return err("the checklist is empty");
  const bad = items.filter((i) => !/^Has\b/.test(i));
  return bad.length ? err(`every item must start with "Has"; these do not: ${bad.join(" | ")}`) : ok(items);
}

export async function generateChecklist(
  input: { env: EnvironmentContext; initialState: JsonObject; task: string },
  deps: ScenStageDeps,
): ScenStageResult<string[]> {
  const reply = await chatParsed(
    deps.llm,
    {
      model: deps.model,
      temperature: 0,
      cacheSalt: deps.cacheSalt,
      purpose: "checklist",
      messages: [
        { role: "system", content: SYSTEM },
        {
          role: "user",
          content: `# Environment\n${input.env.introduction}\n\n# Initial state\n${pretty(input.initialState)}\n\n# Task\n${input.task}`,
        },
      ],
    },
    (r) => parseChecklist(r.content),
  );
  return reply.ok ? ok(reply.value.value) : reply;
}

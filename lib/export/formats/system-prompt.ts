/** The agent's system prompt for an environment, as EnvScaler builds it (spec §7.2/§7.3: docs/envscaler.md). */
import type { ExportEnvironment } from "../export.schema";

export function environmentIntroduction(env: ExportEnvironment): string {
  const rules = Array.isArray(env.rules) ? env.rules.map((r) => `- ${String(r)}`).join("\n") : "";
  return `# Environment Information\n## Brief Introduction:\n${env.description}\n## Environment Rules / Constraints:\n${rules}`;
}

const cache = new WeakMap<ExportEnvironment, string>();

/** Cached per environment object: exporters call this once per row. */
export function systemPrompt(env: ExportEnvironment): string {
  const hit = cache.get(env);
  if (hit !== undefined) return hit;
  const prompt = [
    "You are a helpful assistant completing the given task step by step with the available tools.",
    "Call one tool at a time with all required, valid parameters; query before you modify.",
    'When the task is done, reply with only "Task Completed" and no tool call.',
    "",
    environmentIntroduction(env),
  ].join("\n");
  cache.set(env, prompt);
  return prompt;
}

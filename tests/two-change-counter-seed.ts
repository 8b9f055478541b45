/**
 * TEST ONLY. The two-change counter (./two-change-counter) seeded for DB tests: a project of its own
 * holding the counter environment, with the tools the sandbox extracts from its code, and scenarios
 * of its task with the checks each test names.
 */
import type { Db } from "@/lib/db";
import type { SandboxRunner } from "@/lib/sandbox";
import { createEnvironment, createScenario, createTestProject } from "@/prisma/seed/factories";
import { TWO_CHANGE_COUNTER, TWO_CHANGE_GOLD, TWO_CHANGE_TASK } from "./two-change-counter";

export async function seedCounterEnvironment(
  db: Db,
  sandbox: Pick<SandboxRunner, "extractTools">,
  projectName: string,
) {
  const project = await createTestProject(db, projectName);
  const tools = await sandbox.extractTools(TWO_CHANGE_COUNTER, "Counter");
  if (!tools.ok) throw new Error(tools.error.message);
  const env = await createEnvironment(db, project.id, { source: TWO_CHANGE_COUNTER, tools: tools.value });
  return { project, env };
}

/**
 * A scenario of the counter's task (or `opts.task`) on a fresh counter, judged by `checks`, not
 * proven yet. Near-misses alter only strings the task states, so the task decides how many there are.
 */
export const seedCounterScenario = (
  db: Db,
  environmentId: string,
  checks: string[],
  opts: { goldCalls?: unknown[]; task?: string } = {},
) =>
  createScenario(db, environmentId, {
    checks,
    initialState: { count: 0, tags: [] },
    goldCalls: opts.goldCalls ?? TWO_CHANGE_GOLD,
    task: opts.task ?? TWO_CHANGE_TASK,
  });

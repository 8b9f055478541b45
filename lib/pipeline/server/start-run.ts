import "server-only";
/**
 * Starts a run from the studio form: parses the ideas or the uploaded task file, builds the run
 * config from the LLM defaults plus the user's choices, and enqueues it.
 */
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db";
import { getJobQueue } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import type { StartRunForm } from "../run-form.schema";
import { buildRunConfig } from "../run-config";
import type { RunInput } from "../pipeline.schema";
import { parseIdeas, parseTaskFile } from "../task-file";
import { createRun } from "./create-run";
import { getLlmConfig } from "@/lib/llm";

export function runInputFromForm(form: StartRunForm): RunInput {
  if (form.source === "ideas") {
    const ideas = parseIdeas(form.ideas ?? "");
    if (ideas.length === 0)
      throw new AppError("INVALID_INPUT", "type at least one environment idea (one per line)");
    return { kind: "ideas", ideas };
  }
  if (!form.taskFileText?.trim())
    throw new AppError("INVALID_INPUT", "choose a task file (JSON array or JSONL)");
  const parsed = parseTaskFile(form.taskFileText, form.textField);
  if (!parsed.ok) throw new AppError("INVALID_INPUT", `task file: ${parsed.error.message}`);
  return { kind: "tasks", tasks: parsed.value.tasks, fileName: form.taskFileName };
}

export async function startRun(form: StartRunForm, createdById: string | null) {
  const input = runInputFromForm(form);
  const env = getLlmConfig();
  const config = buildRunConfig(
    env,
    {
      models: {
        topic: form.modelMain,
        logic: form.modelMain,
        code: form.modelMain,
        testState: form.modelMain,
        tester: form.modelCheck,
        judge: form.modelCheck,
        embedding: form.modelEmbedding,
      },
      minUsefulness: form.minUsefulness,
      minModelability: form.minModelability,
      qualityRounds: form.qualityRounds,
      minNotFailRate: form.minNotFailRate,
      maxTokens: form.maxTokens ?? null,
      maxCostUsd: form.maxCostUsd ?? null,
    },
    env.prices,
  );
  const db = getDb();
  const project = await getDefaultProject(db);
  return createRun(db, await getJobQueue(), {
    projectId: project.id,
    name: form.name,
    input,
    config,
    createdById,
  });
}

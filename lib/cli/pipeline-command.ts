/**
 * `envstudio pipeline run`: the same SkelBuilder jobs as the studio, headless. Enqueues the run,
 * runs an in-process worker (unless --no-worker) and prints progress until the run settles; the
 * run and its environments appear in the studio like any other.
 */
import { createDb } from "../db";
import { resolveDatabaseUrl } from "../db/server/resolve-database";
import { cliDataDir } from "./open-project";
import { startWorker } from "../jobs/worker";
import { getLlmConfig } from "../llm";
import { buildRunConfig } from "../pipeline/run-config";
import { createRun } from "../pipeline/server/create-run";
import { type RunProgress, getRunProgress } from "../pipeline/server/get-run";
import { connectQueue } from "../pipeline/server/queue-client";
import { createPipelineStepJob } from "../pipeline/server/step-job";
import { getDefaultProject } from "../projects/server/get-default-project";
import { closeSandboxRunner } from "../sandbox";
import type { CliIo } from "./main";
import { PIPELINE_USAGE, UsageError, parsePipelineRunArgs } from "./pipeline-input";

export function formatProgress(p: RunProgress, elapsedMs: number): string {
  const stages = p.stages.map((s) => `${s.stage} ${s.succeeded}/${s.total}${s.failed ? ` (${s.failed} failed)` : ""}`).join(" · ");
  return `[${(elapsedMs / 1000).toFixed(1)}s] ${p.run.status.toLowerCase()} · ${stages} · $${p.run.costUsd.toFixed(4)} · ${p.run.promptTokens + p.run.completionTokens} tokens`;
}

export async function runPipelineCommand(argv: string[], io: CliIo, opts: { pollMs?: number } = {}): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb !== "run") {
    io.err(verb ? `envstudio pipeline: unknown verb '${verb}'\n${PIPELINE_USAGE}` : PIPELINE_USAGE);
    return 2;
  }
  let args;
  try {
    args = parsePipelineRunArgs(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`envstudio pipeline run: ${e.message}\n${PIPELINE_USAGE}`);
      return 2;
    }
    throw e;
  }
  const llm = getLlmConfig();
  if (!llm.baseUrl) io.err("warning: OPENAI_BASE_URL is not set; LLM steps will fail unless your workers have it");
  const { url, stop } = await resolveDatabaseUrl({ migrate: true, dataDir: cliDataDir() });
  const db = createDb(url, 4);
  const def = createPipelineStepJob(() => db);
  const worker = args.inProcessWorker ? await startWorker(url, [def]) : null;
  const boss = worker?.boss ?? (await connectQueue(url));
  try {
    const project = await getDefaultProject(db);
    const run = await createRun(db, boss, { projectId: project.id, name: args.name, input: args.input, config: buildRunConfig(llm, args.overrides, llm.prices) });
    io.out(`run ${run.id} started (${run.name}); follow it in the studio at /runs/${run.id}`);
    return await follow(db, run.id, io, opts.pollMs ?? 1000);
  } finally {
    if (worker) await worker.stop();
    else await boss.stop({ graceful: false });
    // The in-process worker's steps ran Python in the process-wide sandbox host; left open, it keeps
    // this process alive after the run.
    await closeSandboxRunner();
    await db.$disconnect();
    await stop();
  }
}

async function follow(db: ReturnType<typeof createDb>, runId: string, io: CliIo, pollMs: number): Promise<number> {
  const started = Date.now();
  let last = "";
  for (;;) {
    const progress = await getRunProgress(db, runId);
    const line = formatProgress(progress, Date.now() - started);
    if (line.replace(/^\[[^\]]*\] /, "") !== last) io.out(line);
    last = line.replace(/^\[[^\]]*\] /, "");
    if (progress.run.isTerminal) {
      for (const f of progress.failures) io.out(`  failed: ${f.stage} ${f.subjectKey}: ${f.errorCode}: ${f.errorMessage}`);
      for (const e of progress.environments) io.out(`  environment ${e.name} (${e.id}): ${e.status.toLowerCase()}, ${e.toolCount} tools`);
      return progress.run.status === "SUCCEEDED" ? 0 : 1;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

import "server-only";
/**
 * A pg-boss client for processes that enqueue pipeline work but do not run it (the web server, the
 * CLI in --wait mode): no supervision, queues created if missing. One per process.
 */
import type { PgBoss } from "pg-boss";
import { getDb } from "@/lib/db";
import { ensureQueues, startBoss } from "@/lib/jobs/boss";
import { createPipelineStepJob } from "./step-job";
import { readEnv } from "../../env";

const cache = globalThis as unknown as { envstudioPipelineBoss?: Promise<PgBoss> };

export async function connectQueue(url: string): Promise<PgBoss> {
  const boss = await startBoss(url, { supervise: false });
  await ensureQueues(boss, [createPipelineStepJob(getDb)]);
  return boss;
}

export function getQueueClient(): Promise<PgBoss> {
  const url = readEnv("DATABASE_URL");
  if (!url) return Promise.reject(new Error("DATABASE_URL is not set"));
  cache.envstudioPipelineBoss ??= connectQueue(url).catch((e: unknown) => {
    cache.envstudioPipelineBoss = undefined;
    throw e;
  });
  return cache.envstudioPipelineBoss;
}

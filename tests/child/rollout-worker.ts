/**
 * TEST ONLY. A stand-in worker process for the "killed worker" test: runs one rollout run against
 * the given database and LLM endpoint until the test SIGKILLs it.
 * Usage: tsx tests/child/rollout-worker.ts <databaseUrl> <llmBaseUrl> <runId>
 */
import { createDb } from "@/lib/db";
import { executeRolloutRun } from "@/lib/rollout/server/rollout-run";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { createSandboxRunner } from "@/lib/sandbox";

const [url, baseUrl, runId] = process.argv.slice(2);
if (!url || !baseUrl || !runId) throw new Error("usage: rollout-worker <databaseUrl> <llmBaseUrl> <runId>");
const db = createDb(url, 2);
const sandbox = createSandboxRunner();
console.log("started");
await executeRolloutRun(db, runId, { sandbox, llmFor: createRunLlmFactory(db, { baseUrl, apiKey: "test" }) });
await sandbox.close();
await db.$disconnect();

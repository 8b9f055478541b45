import "server-only";
/** Production wiring for the scenario, proof and rollout jobs: the sandbox and step-bound LLM clients on the worker's database. */
import type { Db } from "@/lib/db";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { getSandboxRunner } from "@/lib/sandbox";

export const proofDeps = (db: Db, signal?: AbortSignal) => ({
  sandbox: getSandboxRunner(),
  llmFor: createRunLlmFactory(db, { signal }),
});

export const generationDeps = (db: Db, signal?: AbortSignal) => ({
  sandbox: getSandboxRunner(),
  llmFor: createRunLlmFactory(db, { signal }),
});

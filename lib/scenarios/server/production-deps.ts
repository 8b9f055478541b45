import "server-only";
/** Production wiring for the scenario, proof and rollout jobs: the shared DB, sandbox and step-bound LLM clients. */
import { getDb } from "@/lib/db";
import { createRunLlmFactory } from "@/lib/runs/server/run-llm";
import { getSandboxRunner } from "@/lib/sandbox";

export const db = () => getDb();

export const proofDeps = (signal?: AbortSignal) => ({ sandbox: getSandboxRunner(), llmFor: createRunLlmFactory(getDb(), { signal }) });

export const generationDeps = (signal?: AbortSignal) => ({ sandbox: getSandboxRunner(), llmFor: createRunLlmFactory(getDb(), { signal }) });

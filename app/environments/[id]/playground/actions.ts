"use server";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { RunToolInputSchema } from "@/lib/playground/playground.schema";
import { runPlaygroundTool } from "@/lib/playground/server/run-tool";
import { getSandboxRunner } from "@/lib/sandbox";

/** Changes nothing stored, but runs code in the sandbox: reviewers and admins only. */
export async function runToolAction(raw: unknown) {
  return runAction(raw, RunToolInputSchema, "REVIEWER", (input) => runPlaygroundTool(getDb(), input, getSandboxRunner()));
}

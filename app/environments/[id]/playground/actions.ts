"use server";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { RunToolInputSchema } from "@/lib/playground/playground.schema";
import { runPlaygroundTool } from "@/lib/playground/server/run-tool";
import { getSandboxRunner, userSandboxSlots } from "@/lib/sandbox";

/** Changes nothing stored, but runs code in the sandbox: reviewers and admins only, one call per user at a time. */
export async function runToolAction(raw: unknown) {
  return runAction(raw, RunToolInputSchema, "REVIEWER", (input, user) =>
    userSandboxSlots().run(user.id ?? user.email, () =>
      runPlaygroundTool(getDb(), input, getSandboxRunner()),
    ),
  );
}

"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { AnalyzeSourceInputSchema, SaveEnvironmentVersionInputSchema } from "@/lib/environments/edit.schema";
import { analyzeEnvironmentSource } from "@/lib/environments/server/analyze-environment-source";
import { saveEnvironmentVersion } from "@/lib/environments/server/save-environment-version";
import { getSandboxRunner, userSandboxSlots } from "@/lib/sandbox";
import { reproveAfterEdit } from "@/lib/scenarios/server/reprove-after-edit";

export async function saveEnvironmentVersionAction(raw: unknown) {
  return runAction(raw, SaveEnvironmentVersionInputSchema, "REVIEWER", async (input, user) => {
    const saved = await saveEnvironmentVersion(getDb(), input, user, getSandboxRunner());
    const reprove = await reproveAfterEdit(getDb(), { environmentId: input.environmentId, actorId: user.id });
    revalidatePath(`/environments/${input.environmentId}`, "layout");
    return { ...saved, reprove };
  });
}

/** Parses in the sandbox process (never executes the code); reviewers only, one call per user at a time, as it costs sandbox time. */
export async function analyzeSourceAction(raw: unknown) {
  return runAction(raw, AnalyzeSourceInputSchema, "REVIEWER", (input, user) =>
    userSandboxSlots().run(user.id ?? user.email, () =>
      analyzeEnvironmentSource(getDb(), input, getSandboxRunner()),
    ),
  );
}

"use server";
/**
 * Run mutations, each through runAction (authorise → parse → one domain function → revalidate).
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/auth/server/run-action";
import { getDb } from "@/lib/db";
import { StartRunFormSchema } from "@/lib/pipeline/run-form.schema";
import { cancelRun, rerunStep } from "@/lib/pipeline/server/control-run";
import { getJobQueue } from "@/lib/jobs/server/send-job";
import { startRun } from "@/lib/pipeline/server/start-run";

const CancelRunInputSchema = z.object({ runId: z.string().min(1) });
const RerunStepInputSchema = z.object({
  runId: z.string().min(1),
  subjectKey: z.string().min(1),
  stage: z.string().min(1),
  fresh: z.boolean().default(false),
});

export async function startRunAction(raw: unknown) {
  return runAction(raw, StartRunFormSchema, "REVIEWER", async (input, user) => {
    const run = await startRun(input, user.id);
    revalidatePath("/runs");
    return { runId: run.id };
  });
}

export async function cancelRunAction(raw: unknown) {
  return runAction(raw, CancelRunInputSchema, "REVIEWER", async (input) => {
    await cancelRun(getDb(), input.runId);
    revalidatePath(`/runs/${input.runId}`);
  });
}

export async function rerunStepAction(raw: unknown) {
  return runAction(raw, RerunStepInputSchema, "REVIEWER", async (input) => {
    await rerunStep(getDb(), await getJobQueue(), input);
    revalidatePath(`/runs/${input.runId}`);
  });
}

"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { ConfirmJudgeInputSchema, ReviewProbeInputSchema } from "@/lib/review/review.schema";
import { confirmJudgeVerdicts } from "@/lib/review/server/confirm-judge-verdicts";
import { reviewQualityProbe } from "@/lib/review/server/review-quality-probe";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { LaunchRepairSchema } from "@/lib/repair/repair-launch.schema";
import { launchRepair } from "@/lib/repair/server/launch-repair";

export async function reviewProbeAction(raw: unknown) {
  return runAction(raw, ReviewProbeInputSchema, "REVIEWER", async (input, user) => {
    const result = await reviewQualityProbe(getDb(), input, user);
    revalidatePath("/environments", "layout");
    return result;
  });
}

export async function confirmJudgeVerdictsAction(raw: unknown) {
  return runAction(raw, ConfirmJudgeInputSchema, "REVIEWER", async (input, user) => {
    const result = await confirmJudgeVerdicts(getDb(), input, user);
    revalidatePath("/environments", "layout");
    return result;
  });
}

/** "Repair failing items" on an environment, dataset version or run page: one REPAIR run, `{ runId }`. */
export async function launchRepairAction(raw: unknown) {
  return runAction(raw, LaunchRepairSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const result = await launchRepair(db, sendJob, (await getDefaultProject(db)).id, input, user);
    revalidatePath("/review");
    return result;
  });
}

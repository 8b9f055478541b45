"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { ConfirmJudgeInputSchema, ReviewProbeInputSchema } from "@/lib/review/review.schema";
import { confirmJudgeVerdicts } from "@/lib/review/server/confirm-judge-verdicts";
import { reviewQualityProbe } from "@/lib/review/server/review-quality-probe";

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

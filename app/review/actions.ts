"use server";
import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { runAction } from "@/lib/auth/server/run-action";
import { ReviewProbeInputSchema } from "@/lib/review/review.schema";
import { reviewQualityProbe } from "@/lib/review/server/review-quality-probe";

export async function reviewProbeAction(raw: unknown) {
  return runAction(raw, ReviewProbeInputSchema, "REVIEWER", async (input, user) => {
    const result = await reviewQualityProbe(getDb(), input, user);
    revalidatePath("/environments", "layout");
    return result;
  });
}

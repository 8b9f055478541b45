"use server";
/**
 * Run mutations: parse → authorise → one domain function → revalidate → return.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireRole } from "@/lib/auth/server/require-role";
import { actionErrorMessage } from "@/lib/auth/server/run-action";
import { getDb } from "@/lib/db";
import { type ActionResult, StartRunFormSchema } from "@/lib/pipeline/run-form.schema";
import { cancelRun, rerunStep } from "@/lib/pipeline/server/control-run";
import { getJobQueue } from "@/lib/jobs/server/send-job";
import { startRun } from "@/lib/pipeline/server/start-run";

const issues = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");

export async function startRunAction(input: unknown): Promise<ActionResult<{ runId: string }>> {
  const form = StartRunFormSchema.safeParse(input);
  if (!form.success) return { ok: false, error: issues(form.error) };
  try {
    const user = await requireRole("REVIEWER");
    const run = await startRun(form.data, user.id);
    revalidatePath("/runs");
    return { ok: true, value: { runId: run.id } };
  } catch (e) {
    return { ok: false, error: actionErrorMessage(e) };
  }
}

export async function cancelRunAction(input: unknown): Promise<ActionResult> {
  const parsed = z.object({ runId: z.string().min(1) }).safeParse(input);
  if (!parsed.success) return { ok: false, error: issues(parsed.error) };
  try {
    await requireRole("REVIEWER");
    await cancelRun(getDb(), parsed.data.runId);
    revalidatePath(`/runs/${parsed.data.runId}`);
    return { ok: true, value: undefined };
  } catch (e) {
    return { ok: false, error: actionErrorMessage(e) };
  }
}

export async function rerunStepAction(input: unknown): Promise<ActionResult> {
  const parsed = z
    .object({
      runId: z.string().min(1),
      subjectKey: z.string().min(1),
      stage: z.string().min(1),
      fresh: z.boolean().default(false),
    })
    .safeParse(input);
  if (!parsed.success) return { ok: false, error: issues(parsed.error) };
  try {
    await requireRole("REVIEWER");
    await rerunStep(getDb(), await getJobQueue(), parsed.data);
    revalidatePath(`/runs/${parsed.data.runId}`);
    return { ok: true, value: undefined };
  } catch (e) {
    return { ok: false, error: actionErrorMessage(e) };
  }
}

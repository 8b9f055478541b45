"use server";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { getDb } from "@/lib/db";
import { requireRole } from "@/lib/auth/server/require-role";
import { actionErrorMessage } from "@/lib/auth/server/run-action";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { LaunchGenerationSchema, LaunchProofSchema, LaunchRolloutsSchema } from "@/lib/scenarios/scenario-launch.schema";
import { launchProof, launchRollouts, launchScenarioGeneration } from "@/lib/scenarios/server/launch-runs";

export type LaunchResult = { ok: true; runId: string } | { ok: false; message: string };

/** parse → authorise → one domain call → revalidate; expected refusals come back as messages. */
async function launch<T>(input: unknown, schema: z.ZodType<T>, run: (data: T, projectId: string, actor: { id: string | null }) => Promise<{ runId: string }>): Promise<LaunchResult> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => i.message).join("; ") };
  try {
    const user = await requireRole("REVIEWER");
    const db = getDb();
    const project = await getDefaultProject(db);
    const { runId } = await run(parsed.data, project.id, user);
    revalidatePath("/environments/[id]", "page");
    return { ok: true, runId };
  } catch (error) {
    // Expected refusals carry their message; anything else is logged, never shown (no internals).
    return { ok: false, message: actionErrorMessage(error) };
  }
}

export async function launchGenerationAction(input: unknown): Promise<LaunchResult> {
  return launch(input, LaunchGenerationSchema, (data, projectId, actor) => launchScenarioGeneration(getDb(), sendJob, projectId, data, actor));
}

export async function launchRolloutsAction(input: unknown): Promise<LaunchResult> {
  return launch(input, LaunchRolloutsSchema, (data, projectId, actor) => launchRollouts(getDb(), sendJob, projectId, data, actor));
}

export async function launchProofAction(input: unknown): Promise<LaunchResult> {
  return launch(input, LaunchProofSchema, (data, projectId, actor) => launchProof(getDb(), sendJob, projectId, data.environmentId, actor));
}

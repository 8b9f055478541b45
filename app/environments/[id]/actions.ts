"use server";
/**
 * Launches from an environment's page (scenario generation, rollouts, proof), each answering
 * `{ runId }`, and archiving: each through runAction, so a viewer gets a refusal like any other
 * action.
 */
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/server/run-action";
import { getDb } from "@/lib/db";
import { sendJob } from "@/lib/jobs/server/send-job";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import {
  LaunchGenerationSchema,
  LaunchProofSchema,
  LaunchRolloutsSchema,
} from "@/lib/scenarios/scenario-launch.schema";
import { launchProof, launchRollouts, launchScenarioGeneration } from "@/lib/scenarios/server/launch-runs";
import { ArchiveEnvironmentSchema } from "@/lib/environments/environment.schema";
import { archiveEnvironment } from "@/lib/environments/server/archive-environment";

async function launched(run: Promise<{ runId: string }>) {
  const { runId } = await run;
  revalidatePath("/environments/[id]", "page");
  return { runId };
}

export async function launchGenerationAction(raw: unknown) {
  return runAction(raw, LaunchGenerationSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    return launched(launchScenarioGeneration(db, sendJob, (await getDefaultProject(db)).id, input, user));
  });
}

export async function launchRolloutsAction(raw: unknown) {
  return runAction(raw, LaunchRolloutsSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    return launched(launchRollouts(db, sendJob, (await getDefaultProject(db)).id, input, user));
  });
}

export async function launchProofAction(raw: unknown) {
  return runAction(raw, LaunchProofSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    return launched(launchProof(db, sendJob, (await getDefaultProject(db)).id, input.environmentId, user));
  });
}

export async function archiveEnvironmentAction(raw: unknown) {
  return runAction(raw, ArchiveEnvironmentSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const result = await archiveEnvironment(db, (await getDefaultProject(db)).id, input, user);
    revalidatePath("/environments", "layout");
    return result;
  });
}

"use server";
/** Scenario-list mutations, each through runAction (authorise → parse → one domain function → revalidate). */
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/server/run-action";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";
import { AddScenariosToDatasetInputSchema } from "@/lib/review/bulk.schema";
import { addScenariosToDataset } from "@/lib/review/server/bulk-review";

/** The ticked scenarios into a dataset's next version; what the rules left out comes back with why. */
export async function addScenariosToDatasetAction(raw: unknown) {
  return runAction(raw, AddScenariosToDatasetInputSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const project = await getDefaultProject(db);
    const reply = await addScenariosToDataset(db, project.id, input, user);
    revalidatePath("/datasets");
    revalidatePath("/scenarios");
    return reply;
  });
}

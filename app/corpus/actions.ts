"use server";
/** Corpus map mutations, each through runAction (authorise → parse → one domain function → revalidate). */
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/server/run-action";
import { DismissDuplicatesInputSchema, MergeDuplicatesInputSchema } from "@/lib/corpus/corpus.schema";
import { dismissDuplicates } from "@/lib/corpus/server/dismiss-duplicates";
import { mergeDuplicates } from "@/lib/corpus/server/merge-duplicates";
import { getDb } from "@/lib/db";
import { getDefaultProject } from "@/lib/projects/server/get-default-project";

/** Keep one environment of a duplicate cluster; the others are rejected as its duplicates (logged). */
export async function mergeDuplicatesAction(raw: unknown) {
  return runAction(raw, MergeDuplicatesInputSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const result = await mergeDuplicates(db, (await getDefaultProject(db)).id, input, user);
    revalidatePath("/corpus");
    revalidatePath("/environments");
    revalidatePath("/review");
    return result;
  });
}

/** "Not duplicates": the cluster's pairs leave the map (logged per version). */
export async function dismissDuplicatesAction(raw: unknown) {
  return runAction(raw, DismissDuplicatesInputSchema, "REVIEWER", async (input, user) => {
    const db = getDb();
    const result = await dismissDuplicates(db, (await getDefaultProject(db)).id, input, user);
    revalidatePath("/corpus");
    return result;
  });
}
